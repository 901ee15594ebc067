/* rk_load: load a host kernel, translate states, run one interrupt. */
#define _POSIX_C_SOURCE 200809L
#include "rk_load.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "lineread.h"
#include "rk_fault.h"


/* ---- kernel.info ---- */

/* The kernel version a build is of, from the facts build-kernel.sh probed
 * in its tree (kernel.info features), so that the model takes the
 * features (cfg_has) of that version: the one place real/ tells the
 * versions apart. Master's release queue (HK_RELEASE_QUEUE, 686bba4d2)
 * marks master; without it the tree is base. */
static int kernel_of_features(const char *features)
{
    return strstr(features, "HK_RELEASE_QUEUE") ? KS_KERNEL_MASTER : KS_KERNEL_BASE;
}

/* What build-kernel.sh recorded of hostkernel.so when it linked it
 * (kernel.info so_size, so_crc32: absent in builds made before them). */
struct so_record {
    uint64_t size, crc;
    bool has_size, has_crc;
};

/* val as a whole decimal number; false when it is not one */
static bool info_number(const char *val, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(val, &end, 10);
    if (val[0] < '0' || val[0] > '9' || *end || errno)
        return false;
    *out = v;
    return true;
}

static int info_line(struct rk_kernel *k, struct so_record *so, const char *key, const char *val)
{
    if (strcmp(key, "so_size") == 0)
        so->has_size = info_number(val, &so->size);
    else if (strcmp(key, "so_crc32") == 0)
        so->has_crc = info_number(val, &so->crc);
    else if (strcmp(key, "board") == 0)
        snprintf(k->board, sizeof k->board, "%s", val);
    else if (strcmp(key, "commit") == 0)
        snprintf(k->commit, sizeof k->commit, "%s", val);
    else if (strcmp(key, "features") == 0)
        k->kernel = kernel_of_features(val);
    else if (strcmp(key, "model_features") == 0) {
        /* a name this irqsim does not know (another version's build): the
         * version's row, as for a build that recorded none */
        char why[80];
        if (cfg_features_parse(val, strlen(val), &k->model_features, why, sizeof why) != 0)
            k->model_features = 0;
    }
    return 0;
}

static int read_info(struct rk_kernel *k, struct so_record *so, char *err, size_t errlen)
{
    /* the longest line is model_features, every feature's name (sim/config.h
     * KS_FEATURES) joined by '+': well below this */
    char path[600], line[1024];
    snprintf(path, sizeof path, "%s/kernel.info", k->dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: no kernel.info (not a build of real/build-kernel.sh?)", k->dir);
        return -1;
    }
    /* bounded lines: a kernel.info that is /dev/zero or one endless line
     * is refused, not read forever */
    size_t n;
    int no = 0;
    enum line_status st;
    while ((st = line_read(f, line, sizeof line, &n)) == LINE_OK || st == LINE_CUT) {
        no++;
        line[strcspn(line, "\n")] = 0;
        char *eq = strchr(line, '=');
        if (eq) {
            *eq = 0;
            info_line(k, so, line, eq + 1);
        }
    }
    fclose(f);
    if (st == LINE_EOF)
        return 0;
    snprintf(err, errlen, "%s:%d: %s", path, no + 1,
             st == LINE_LONG  ? "line longer than 1022 bytes (not a kernel.info of real/build-kernel.sh)"
             : st == LINE_NUL ? "a NUL byte (not a kernel.info of real/build-kernel.sh)"
                              : "read error");
    return -1;
}

/* kernel platform <-> the generator's board preset */
static const char *const platform_map[][2] = {{"imx8mm-evk", "imx8mm"}, {"imx8mq-evk", "imx8mq"},
                                              {"odroidc4", "odroidc4"}, {"tqma8xqp1gb", "tqma"},
                                              {"tx1", "tx1"},           {"zynqmp", "zcu106"}};

static const char *preset_of(const char *board)
{
    for (size_t i = 0; i < sizeof platform_map / sizeof platform_map[0]; i++)
        if (strcmp(board, platform_map[i][0]) == 0)
            return platform_map[i][1];
    return NULL;
}

const char *rk_platform_of(const char *preset)
{
    for (size_t i = 0; i < sizeof platform_map / sizeof platform_map[0]; i++)
        if (strcmp(preset, platform_map[i][1]) == 0)
            return platform_map[i][0];
    return NULL;
}

/* The build's configuration as the model takes it: the kernel's own
 * constants (hk_info), not the preset's. */
static void config_of(struct rk_kernel *k)
{
    struct ks_config *c = &k->cfg;
    const struct hk_info *i = &k->info;
    memset(c, 0, sizeof *c);
    const char *p = preset_of(k->board);
    /* a board name longer than the model's field is cut (it only labels) */
    snprintf(c->board, sizeof c->board, "%.*s", (int)sizeof c->board - 1, p ? p : k->board);
    c->timer_hz = i->timer_hz;
    c->wcet_us = i->wcet_us;
    c->wcet_scale = i->wcet_scale;
    c->precision_us = i->precision_us;
    c->overhead_ticks = i->overhead_ticks;
    c->num_domains = i->num_domains;
    c->max_irq = i->max_irq;
    c->gic_version = (uint8_t)i->gic_version;
    c->smp = i->cores > 1;
    c->fpu = i->fpu;
    c->hyp = i->hyp;
    /* KernelSignalFastpath: its exits leave what the generator draws at
     * the other targets' entries (gen_leftovers, the target's admit_built) */
    c->signal_fastpath = i->signal_fastpath != 0;
    cfg_derive(c);
}

/* ---- hostkernel.so checked before dlopen ----
 * dlopen maps the file's segments as they are laid out in its headers: a
 * copy cut short maps pages past the end of the file, and the loader's
 * first touch of one is a SIGBUS that kills the command. So the file is
 * checked first: its size and CRC-32 against what the build recorded, and
 * (for builds made before the record) that every header, segment and the
 * section table lie inside the file. */

static int so_refuse(char *err, size_t errlen, const char *path, const char *why)
{
    snprintf(err, errlen, "%s: %s: rebuild it (irqsim kernel build --force ...)", path, why);
    return -1;
}

/* The CRC-32 (zlib's) of the open file fd; -1 on a read error. */
static int so_crc32(int fd, uint64_t *crc)
{
    unsigned char buf[1 << 16];
    uLong c = crc32(0L, Z_NULL, 0);
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        c = crc32(c, buf, (uInt)n);
    }
    *crc = c;
    return 0;
}

/* a table of n entries of size each at off lies inside a file of size len */
static bool so_inside(uint64_t off, uint64_t n, uint64_t size, uint64_t len)
{
    return off <= len && (size == 0 || n <= (len - off) / size);
}

/* The ELF layout against the file's length: the header, the program
 * headers, every segment's file bytes and the section headers. */
static const char *so_layout(int fd, uint64_t len)
{
    Elf64_Ehdr eh;
    if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh)
        return "shorter than an ELF header";
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64)
        return "not a 64-bit ELF file";
    if (eh.e_phentsize != sizeof(Elf64_Phdr) || !so_inside(eh.e_phoff, eh.e_phnum, sizeof(Elf64_Phdr), len))
        return "its program headers lie past its end (a copy cut short?)";
    if (!so_inside(eh.e_shoff, eh.e_shnum, eh.e_shentsize, len))
        return "its section headers lie past its end (a copy cut short?)";
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        if (pread(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + i * sizeof ph)) != (ssize_t)sizeof ph)
            return "its program headers cannot be read";
        if (ph.p_type == PT_LOAD && !so_inside(ph.p_offset, 1, ph.p_filesz, len))
            return "a segment lies past its end (a copy cut short?)";
    }
    return NULL;
}

/* path checked against the record and its own layout; 0 when it may be
 * loaded */
static int so_check(const char *path, const struct so_record *so, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return so_refuse(err, errlen, path, strerror(errno));
    struct stat st;
    char why[160];
    const char *bad = NULL;
    uint64_t crc = 0;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        bad = "not a regular file";
    else if (so->has_size && (uint64_t)st.st_size != so->size) {
        snprintf(why, sizeof why, "%" PRIu64 " bytes, kernel.info says %" PRIu64 " (a copy cut short?)",
                 (uint64_t)st.st_size, so->size);
        bad = why;
    } else
        bad = so_layout(fd, (uint64_t)st.st_size);
    if (!bad && so->has_crc && so_crc32(fd, &crc) != 0)
        bad = "cannot be read";
    else if (!bad && so->has_crc && crc != so->crc) {
        snprintf(why, sizeof why, "CRC-32 %" PRIu64 ", kernel.info says %" PRIu64 " (a damaged copy?)", crc, so->crc);
        bad = why;
    }
    close(fd);
    return bad ? so_refuse(err, errlen, path, bad) : 0;
}

#define SYM(field, name)                                                     \
    do {                                                                     \
        *(void **)&k->field = dlsym(k->dl, name);                            \
        if (!k->field) {                                                     \
            snprintf(err, errlen, "%s: hostkernel.so has no %s", dir, name); \
            rk_close(k);                                                     \
            return -1;                                                       \
        }                                                                    \
    } while (0)

int rk_open(struct rk_kernel *k, const char *dir, char *err, size_t errlen)
{
    memset(k, 0, sizeof *k);
    snprintf(k->dir, sizeof k->dir, "%s", dir);
    struct so_record so = {0, 0, false, false};
    if (read_info(k, &so, err, errlen) != 0)
        return -1;
    char path[600];
    snprintf(path, sizeof path, "%s/hostkernel.so", dir);
    if (so_check(path, &so, err, errlen) != 0)
        return -1;
    /* RTLD_LOCAL: each build keeps its own kernel globals */
    k->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!k->dl) {
        snprintf(err, errlen, "%s", dlerror());
        return -1;
    }
    int (*abi)(void);
    void (*info)(struct hk_info *);
    /* the version first: a build of an older irqsim lacks newer symbols */
    *(void **)&abi = dlsym(k->dl, "hk_abi_version");
    *(void **)&info = dlsym(k->dl, "hk_info");
    if (!abi || !info || abi() != HK_ABI_VERSION) {
        snprintf(err, errlen, "%s: ABI version %d, this irqsim speaks %d: rebuild it with real/build-kernel.sh", dir,
                 abi ? abi() : -1, HK_ABI_VERSION);
        rk_close(k);
        return -1;
    }
    info(&k->info);
    if (k->info.state_size != sizeof(struct hk_state)) {
        snprintf(err, errlen,
                 "%s: its hk_state is %u bytes, this irqsim's %zu (a build of another irqsim of ABI version %d): "
                 "rebuild it with real/build-kernel.sh",
                 dir, k->info.state_size, sizeof(struct hk_state), HK_ABI_VERSION);
        rk_close(k);
        return -1;
    }
    SYM(load, "hk_load");
    SYM(entry, "hk_entry");
    SYM(save, "hk_save");
    SYM(error, "hk_error");
    SYM(fault, "hk_fault");
    config_of(k);
    rk_model(k, -1);
    return 0;
}

void rk_model(struct rk_kernel *k, int kernel)
{
    if (kernel >= 0)
        cfg_set_kernel(&k->cfg, kernel);
    else if (k->model_features)
        cfg_set_features(&k->cfg, k->model_features);
    else
        cfg_set_kernel(&k->cfg, k->kernel);
}

void rk_close(struct rk_kernel *k)
{
    if (k->dl)
        dlclose(k->dl);
    k->dl = NULL;
}

const char *rk_error(struct rk_kernel *k)
{
    return k->error();
}

/* ---- kstate <-> hk_state: the same fields, kept side by side ---- */

static void tcb_to_hk(const struct ks_tcb *t, struct hk_tcb *x)
{
    x->state = t->state;
    x->prio = t->prio;
    x->domain = t->domain;
    x->affinity = t->affinity;
    x->blocking = t->blocking;
    x->reply = t->reply;
    x->queued = t->queued;
    x->in_release = t->in_release;
    x->sc = t->sc;
    x->bound_ntfn = t->bound_ntfn;
    x->sched_next = t->sched_next;
    x->sched_prev = t->sched_prev;
    x->ep_next = t->ep_next;
    x->ep_prev = t->ep_prev;
    _Static_assert((int)FAULT_None == (int)HK_FAULT_None && (int)FAULT_Timeout == (int)HK_FAULT_Timeout &&
                       (int)FAULT_CapFault == (int)HK_FAULT_CapFault &&
                       (int)FAULT_VPPIEvent == (int)HK_FAULT_VPPIEvent &&
                       (int)FAULT_VGICMaintenance == (int)HK_FAULT_VGICMaintenance && FAULT_COUNT == 5,
                   "irqsim's and the bridge's fault numbering differ");
    _Static_assert((int)LKF_NONE == (int)HK_LKF_None && (int)LKF_MISSING == (int)HK_LKF_Missing &&
                       (int)LKF_RESOLVE == (int)HK_LKF_Resolve && (int)LKF_STALE == (int)HK_LKF_Stale && LKF_COUNT == 4,
                   "irqsim's and the bridge's lookup fault numbering differ");
    x->vcpu = t->vcpu;
    x->fault_ep = t->fault_ep;
    x->fault_lr = t->fault_lr;
    x->fault = t->fault;
    x->timeout_handler = t->timeout_handler;
    x->vtable_ok = t->vtable_ok;
    x->asid_ok = t->asid_ok;
    x->vmid_ok = t->vmid_ok;
    x->fpu_live = t->fpu_live;
    x->fpu_disabled = t->fpu_disabled;
    x->lookup_fault = t->lookup_fault;
    x->badge_reg = t->badge_reg;
    x->ipc_badge = t->ipc_badge;
    x->ipc_grant = t->ipc_grant;
    x->ipc_grant_reply = t->ipc_grant_reply;
    x->ipc_call = t->ipc_call;
}

static void tcb_from_hk(const struct hk_tcb *x, struct ks_tcb *t)
{
    t->state = x->state;
    t->prio = x->prio;
    t->domain = x->domain;
    t->affinity = x->affinity;
    t->blocking = x->blocking;
    t->reply = x->reply;
    t->queued = x->queued;
    t->in_release = x->in_release;
    t->sc = x->sc;
    t->bound_ntfn = x->bound_ntfn;
    t->sched_next = x->sched_next;
    t->sched_prev = x->sched_prev;
    t->ep_next = x->ep_next;
    t->ep_prev = x->ep_prev;
    t->fault = x->fault;
    t->vcpu = x->vcpu;
    t->fault_ep = x->fault_ep;
    if (x->fault == HK_FAULT_VGICMaintenance) /* stale otherwise, as the model keeps it */
        t->fault_lr = x->fault_lr;
    t->timeout_handler = x->timeout_handler;
    t->vtable_ok = x->vtable_ok;
    t->asid_ok = x->asid_ok;
    t->vmid_ok = x->vmid_ok;
    t->fpu_live = x->fpu_live;
    t->fpu_disabled = x->fpu_disabled;
    t->lookup_fault = x->lookup_fault < LKF_COUNT ? x->lookup_fault : LKF_STALE;
    t->badge_reg = x->badge_reg;
    t->ipc_badge = x->ipc_badge;
    t->ipc_grant = x->ipc_grant;
    t->ipc_grant_reply = x->ipc_grant_reply;
    t->ipc_call = x->ipc_call;
}

static void sc_to_hk(const struct ks_sc *s, struct hk_sc *x)
{
    x->period = s->period;
    x->consumed = s->consumed;
    x->badge = s->badge;
    x->refill_max = s->refill_max;
    x->head = s->head;
    x->tail = s->tail;
    x->sporadic = s->sporadic;
    x->core = s->core;
    x->tcb = s->tcb;
    x->ntfn = s->ntfn;
    x->reply = s->reply;
    for (int r = 0; r < s->refill_max && r < KS_MAX_REFILLS; r++) {
        x->r_time[r] = s->refills[r].time;
        x->r_amount[r] = s->refills[r].amount;
    }
}

static void sc_from_hk(const struct hk_sc *x, struct ks_sc *s)
{
    s->period = x->period;
    s->consumed = x->consumed;
    s->badge = x->badge;
    s->refill_max = x->refill_max;
    s->head = x->head;
    s->tail = x->tail;
    s->sporadic = x->sporadic;
    s->core = x->core;
    s->tcb = x->tcb;
    s->ntfn = x->ntfn;
    s->reply = x->reply;
    for (int r = 0; r < x->refill_max && r < KS_MAX_REFILLS; r++) {
        s->refills[r].time = x->r_time[r];
        s->refills[r].amount = x->r_amount[r];
    }
}

static void node_to_hk(const struct kstate *ks, struct hk_state *h)
{
    h->hw_clock = ks->hw_clock;
    h->active_irq = ks->active_irq;
    h->cur_thread = ks->cur_thread;
    h->cur_sc = ks->cur_sc;
    h->idle_thread = ks->idle_thread;
    h->idle_sc = ks->idle_sc;
    h->sched_action = ks->sched_action;
    h->reprogram = ks->reprogram;
    h->cur_time = ks->cur_time;
    h->consumed = ks->consumed;
    h->deadline = ks->deadline;
    for (int c = 0; c < KS_MAX_CORES; c++) {
        h->release_head[c] = ks->release_head[c];
        h->core_cur[c] = ks->core_cur[c];
        h->core_idle[c] = ks->core_idle[c];
        h->core_reprogram[c] = ks->core_reprogram[c];
    }
    h->ipi_pending = ks->ipi_pending;
    h->ipi_sent = ks->ipi_sent;
    memcpy(h->l1, ks->l1, sizeof h->l1);
    memcpy(h->l2, ks->l2, sizeof h->l2);
    h->cur_domain = ks->cur_domain;
    h->domain_time = ks->domain_time;
    h->dom_idx = ks->dom_idx;
    h->dom_len = ks->dom_len;
    /* both forms: base's whole ms (the checker admits no other on base),
     * master's ticks */
    ticks_t tpm = cfg_us_to_ticks(&ks->cfg, 1000);
    for (int i = 0; i < ks->dom_len && i < KS_MAX_DOM_SCHED; i++) {
        h->dom_domain[i] = (unsigned char)dschedule_domain(ks->dom_sched[i]);
        h->dom_ticks[i] = dschedule_duration(ks->dom_sched[i]);
        h->dom_length_ms[i] = (unsigned)(tpm ? h->dom_ticks[i] / tpm : 0);
    }
    h->dom_start = ks->dom_start;
}

/* The ready-queue bitmaps: the rows of the first cores and domains
 * (all of them: rk_from_hk; the build's: save, whose kstate already holds
 * the input's other rows). */
_Static_assert(sizeof(((struct kstate *)0)->l1) == sizeof(((struct hk_state *)0)->l1) &&
                   sizeof(((struct kstate *)0)->l2) == sizeof(((struct hk_state *)0)->l2) &&
                   KS_MAX_CORES == HK_MAX_CORES && KS_MAX_DOMAINS == HK_MAX_DOMAINS && KS_L2_SIZE == HK_L2_SIZE,
               "the ready-queue bitmaps of kstate and hk_state differ");

static void bitmaps_copy(uint64_t (*l1)[KS_MAX_DOMAINS], uint64_t (*l2)[KS_MAX_DOMAINS][KS_L2_SIZE],
                         const unsigned long long (*h1)[HK_MAX_DOMAINS],
                         const unsigned long long (*h2)[HK_MAX_DOMAINS][HK_L2_SIZE], unsigned cores, unsigned doms)
{
    for (unsigned c = 0; c < cores; c++) {
        memcpy(l1[c], h1[c], doms * sizeof l1[c][0]);
        memcpy(l2[c], h2[c], doms * sizeof l2[c][0]);
    }
}

static void node_from_hk(const struct hk_state *h, struct kstate *ks, unsigned cores, unsigned doms)
{
    ks->hw_clock = h->hw_clock;
    ks->cur_thread = h->cur_thread;
    ks->cur_sc = h->cur_sc;
    ks->sched_action = h->sched_action;
    ks->reprogram = h->reprogram;
    ks->cur_time = h->cur_time;
    ks->consumed = h->consumed;
    ks->deadline = h->deadline;
    for (int c = 0; c < KS_MAX_CORES; c++) {
        ks->release_head[c] = h->release_head[c];
        ks->core_cur[c] = h->core_cur[c];
        ks->core_reprogram[c] = h->core_reprogram[c];
    }
    ks->ipi_pending = h->ipi_pending;
    ks->ipi_sent = h->ipi_sent;
    bitmaps_copy(ks->l1, ks->l2, h->l1, h->l2, cores, doms);
    ks->cur_domain = h->cur_domain;
    ks->domain_time = h->domain_time;
    ks->dom_idx = h->dom_idx;
}

/* The IRQ table is copied array by array: the two sides lay it out the
 * same (checked here). irq_masked and irq_cap.can_send are bool on
 * irqsim's side: an hk_state holds 0 or 1 there (converted from bool, or
 * written by hk_save from a mask bit or a 1-bit cap field). An
 * element-wise loop over a table of a few hundred IRQs was a tenth of
 * the bridge. */
#define SAME_FIELD(a, b, f) (offsetof(a, f) == offsetof(b, f) && sizeof(((a *)0)->f) == sizeof(((b *)0)->f))
_Static_assert(sizeof(struct ks_irq_cap) == sizeof(struct hk_irq_cap) &&
                   SAME_FIELD(struct ks_irq_cap, struct hk_irq_cap, type) &&
                   SAME_FIELD(struct ks_irq_cap, struct hk_irq_cap, can_send) &&
                   SAME_FIELD(struct ks_irq_cap, struct hk_irq_cap, ntfn) &&
                   SAME_FIELD(struct ks_irq_cap, struct hk_irq_cap, badge),
               "struct ks_irq_cap and struct hk_irq_cap differ in layout");
_Static_assert(sizeof(((struct kstate *)0)->irq_state[0]) == 1 && sizeof(((struct kstate *)0)->irq_masked[0]) == 1 &&
                   sizeof(((struct kstate *)0)->irq_acks[0]) == 1 &&
                   sizeof(((struct kstate *)0)->irq_active[0]) == 1 && sizeof(((struct kstate *)0)->irq_cfg[0]) == 1 &&
                   KS_MAX_IRQS == HK_MAX_IRQS && KS_IRQ_EDGE == HK_IRQ_EDGE && KS_IRQ_CORE_SHIFT == HK_IRQ_CORE_SHIFT,
               "the IRQ arrays of kstate and hk_state differ");

static void irqs_to_hk(const struct kstate *ks, struct hk_state *h)
{
    size_t n = ks->n_irqs;
    h->n_irqs = ks->n_irqs;
    memcpy(h->irq_state, ks->irq_state, n);
    memcpy(h->irq_masked, ks->irq_masked, n);
    memcpy(h->irq_acks, ks->irq_acks, n);
    memcpy(h->irq_cfg, ks->irq_cfg, n);
    memcpy(h->irq_cap, ks->irq_cap, n * sizeof h->irq_cap[0]);
    h->oor_irq = ks->oor_irq;
    h->oor_masked = ks->oor_masked;
    h->oor_acks = ks->oor_acks;
    memcpy(h->irq_active, ks->irq_active, n);
    h->oor_active = ks->oor_active;
    for (int c = 0; c < KS_MAX_CORES; c++) {
        h->core_ppi_masked[c] = c ? ks->core_ppi_masked[c] : 0;
        h->core_ppi_active[c] = c ? ks->core_ppi_active[c] : 0;
    }
}

static void irqs_from_hk(const struct hk_state *h, struct kstate *ks)
{
    size_t n = h->n_irqs;
    if (h->n_irqs > ks->n_irqs)
        ks_irq_touch(ks, h->n_irqs - 1);
    memcpy(ks->irq_state, h->irq_state, n);
    memcpy(ks->irq_masked, h->irq_masked, n);
    memcpy(ks->irq_acks, h->irq_acks, n);
    memcpy(ks->irq_cfg, h->irq_cfg, n);
    memcpy(ks->irq_cap, h->irq_cap, n * sizeof ks->irq_cap[0]);
    ks->oor_irq = h->oor_irq;
    ks->oor_masked = h->oor_masked;
    ks->oor_acks = h->oor_acks;
    memcpy(ks->irq_active, h->irq_active, n);
    ks->oor_active = h->oor_active != 0;
    for (int c = 1; c < KS_MAX_CORES; c++) {
        ks->core_ppi_masked[c] = h->core_ppi_masked[c];
        ks->core_ppi_active[c] = h->core_ppi_active[c];
    }
}

/* the hypervisor's VCPUs and VGIC (kstate's, sim/vcpu.h) */
_Static_assert(KS_MAX_VCPUS <= HK_MAX_VCPUS && KS_VGIC_MAX_LRS == HK_VGIC_LRS && VGIC_LR_TYPE == HK_LR_TYPE &&
                   KS_MAX_CORES == HK_MAX_CORES &&
                   VGIC_LR_EOI == HK_LR_EOI,
               "the VCPUs and list registers of kstate and hk_state differ");

static void vcpus_to_hk(const struct kstate *ks, struct hk_state *h)
{
    h->n_vcpus = ks->n_vcpus;
    h->cur_vcpu = ks->cur_vcpu;
    h->vcpu_active = ks->vcpu_active;
    h->vgic_num_lr = ks->vgic_num_lr;
    h->vgic_misr_eoi = ks->vgic_misr_eoi;
    h->vgic_eisr = ks->vgic_eisr;
    memcpy(h->vgic_lr, ks->vgic_lr, sizeof h->vgic_lr);
    for (int c = 0; c < KS_MAX_CORES; c++) {
        h->core_vcpu[c] = c ? ks->core_vcpu[c] : HK_NONE;
        h->core_vcpu_active[c] = c && ks->core_vcpu_active[c];
        memcpy(h->core_vgic_lr[c], ks->core_vgic_lr[c], sizeof h->core_vgic_lr[c]);
        h->core_vgic_eisr[c] = ks->core_vgic_eisr[c];
        h->core_vgic_misr_eoi[c] = ks->core_vgic_misr_eoi[c];
    }
    for (int i = 0; i < ks->n_vcpus; i++) {
        h->vcpus[i].tcb = ks->vcpus[i].tcb;
        h->vcpus[i].vppi_masked = ks->vcpus[i].vppi_masked;
        memcpy(h->vcpus[i].lr, ks->vcpus[i].lr, sizeof h->vcpus[i].lr);
    }
}

static void vcpus_from_hk(const struct hk_state *h, struct kstate *ks)
{
    ks->cur_vcpu = h->cur_vcpu;
    ks->vcpu_active = h->vcpu_active;
    ks->vgic_misr_eoi = h->vgic_misr_eoi;
    ks->vgic_eisr = h->vgic_eisr;
    memcpy(ks->vgic_lr, h->vgic_lr, sizeof ks->vgic_lr);
    for (int c = 1; c < KS_MAX_CORES; c++) {
        ks->core_vcpu[c] = h->core_vcpu[c];
        ks->core_vcpu_active[c] = h->core_vcpu_active[c] != 0;
        memcpy(ks->core_vgic_lr[c], h->core_vgic_lr[c], sizeof ks->core_vgic_lr[c]);
        ks->core_vgic_eisr[c] = h->core_vgic_eisr[c];
        ks->core_vgic_misr_eoi[c] = h->core_vgic_misr_eoi[c] != 0;
    }
    for (int i = 0; i < ks->n_vcpus; i++) {
        ks->vcpus[i].tcb = h->vcpus[i].tcb;
        ks->vcpus[i].vppi_masked = h->vcpus[i].vppi_masked;
        memcpy(ks->vcpus[i].lr, h->vcpus[i].lr, sizeof ks->vcpus[i].lr);
    }
}

void rk_to_hk(const struct kstate *ks, struct hk_state *h)
{
    node_to_hk(ks, h);
    h->n_tcbs = ks->n_tcbs;
    h->n_scs = ks->n_scs;
    h->n_ntfns = ks->n_ntfns;
    h->n_eps = ks->n_eps;
    h->n_replies = ks->n_replies;
    for (int i = 0; i < ks->n_tcbs; i++)
        tcb_to_hk(&ks->tcbs[i], &h->tcbs[i]);
    for (int i = 0; i < ks->n_scs; i++)
        sc_to_hk(&ks->scs[i], &h->scs[i]);
    for (int i = 0; i < ks->n_ntfns; i++) {
        const struct ks_ntfn *n = &ks->ntfns[i];
        h->ntfns[i] = (struct hk_ntfn){n->state, n->q_head, n->q_tail, n->bound_tcb, n->sc, n->msg_id};
    }
    for (int i = 0; i < ks->n_eps; i++)
        h->eps[i] = (struct hk_ep){ks->eps[i].state, ks->eps[i].q_head, ks->eps[i].q_tail};
    for (int i = 0; i < ks->n_replies; i++) {
        const struct ks_reply *r = &ks->replies[i];
        h->replies[i] = (struct hk_reply){r->tcb, r->prev, r->next, r->sc_head};
    }
    irqs_to_hk(ks, h);
    vcpus_to_hk(ks, h);
    h->sys_call = 0;
}

static void from_hk(const struct hk_state *h, struct kstate *ks, unsigned cores, unsigned doms);

/* Only the fields the kernel holds are written: the rest of ks (names,
 * configuration, budgets, assertion records) stays as the caller had it. */
void rk_from_hk(const struct hk_state *h, struct kstate *ks)
{
    from_hk(h, ks, KS_MAX_CORES, KS_MAX_DOMAINS);
}

static void from_hk(const struct hk_state *h, struct kstate *ks, unsigned cores, unsigned doms)
{
    node_from_hk(h, ks, cores, doms);
    for (int i = 0; i < ks->n_tcbs; i++)
        tcb_from_hk(&h->tcbs[i], &ks->tcbs[i]);
    for (int i = 0; i < ks->n_scs; i++)
        sc_from_hk(&h->scs[i], &ks->scs[i]);
    for (int i = 0; i < ks->n_ntfns; i++) {
        const struct hk_ntfn *x = &h->ntfns[i];
        struct ks_ntfn *n = &ks->ntfns[i];
        n->state = x->state;
        n->q_head = x->q_head;
        n->q_tail = x->q_tail;
        n->bound_tcb = x->bound_tcb;
        n->sc = x->sc;
        n->msg_id = x->msg_id;
    }
    for (int i = 0; i < ks->n_eps; i++) {
        ks->eps[i].state = h->eps[i].state;
        ks->eps[i].q_head = h->eps[i].q_head;
        ks->eps[i].q_tail = h->eps[i].q_tail;
    }
    for (int i = 0; i < ks->n_replies; i++) {
        const struct hk_reply *x = &h->replies[i];
        ks->replies[i].tcb = x->tcb;
        ks->replies[i].prev = x->prev;
        ks->replies[i].next = x->next;
        ks->replies[i].sc_head = x->sc_head;
    }
    irqs_from_hk(h, ks);
    vcpus_from_hk(h, ks);
}

/* ---- running ---- */

/* the system call's CSpace, registers and IPC buffer (NULL: none) */
static void sys_to_hk(const struct rk_syscall *sys, struct hk_state *h)
{
    if (!sys)
        return;
    h->sys_call = 1;
    h->sys_cptr = sys->cptr;
    h->sys_msginfo = sys->msginfo;
    h->sys_reply_cptr = sys->reply_cptr;
    h->sys_ipc_buffer = sys->ipc_buffer;
    for (int i = 0; i < 3; i++)
        h->sys_extra_cptr[i] = sys->extra_cptr[i];
    _Static_assert(sizeof sys->cspace == sizeof h->cspace, "the CSpace of rk_syscall and hk_state differ");
    memcpy(h->cspace, sys->cspace, sizeof h->cspace);
    h->sys_mr0 = sys->mr0;
    h->sys_mr1 = sys->mr1;
    h->sys_mr2 = sys->mr2;
    h->sys_mr3 = sys->mr3;
    h->sys_mr4 = sys->mr4;
    h->sys_irq_method = sys->irq_method;
}

static int load(struct rk_kernel *k, const struct kstate *in, const struct rk_syscall *sys)
{
    rk_to_hk(in, &k->hin);
    sys_to_hk(sys, &k->hin);
    return k->load(&k->hin);
}

#define HK_L2_END (offsetof(struct hk_state, l2) + sizeof(((struct hk_state *)0)->l2))
_Static_assert(offsetof(struct hk_state, l2) == offsetof(struct hk_state, l1) + sizeof(((struct hk_state *)0)->l1),
               "hk_state: l2 follows l1");

/* the bitmap rows of the build's cores and domains */
static unsigned build_cores(const struct rk_kernel *k)
{
    return k->info.cores < HK_MAX_CORES ? k->info.cores : HK_MAX_CORES;
}

static unsigned build_domains(const struct rk_kernel *k)
{
    return k->info.num_domains < HK_MAX_DOMAINS ? k->info.num_domains : HK_MAX_DOMAINS;
}

/* dst = src for every field in use: the header, the objects below each
 * count and the IRQs below n_irqs. A whole hk_state is ~45 KiB, most of it
 * IRQ table and object slots no state uses; copying all of it twice per
 * check was the largest single cost of a real differential check.
 * The bitmaps only in the build's rows: the kernel holds no others, and
 * save() reads no others back. */
static void hk_copy_used(const struct rk_kernel *k, struct hk_state *dst, const struct hk_state *src)
{
    memcpy(dst, src, offsetof(struct hk_state, l1));
    for (unsigned c = 0, doms = build_domains(k); c < build_cores(k); c++) {
        memcpy(dst->l1[c], src->l1[c], doms * sizeof dst->l1[c][0]);
        memcpy(dst->l2[c], src->l2[c], doms * sizeof dst->l2[c][0]);
    }
    memcpy((char *)dst + HK_L2_END, (const char *)src + HK_L2_END, offsetof(struct hk_state, tcbs) - HK_L2_END);
    memcpy(dst->tcbs, src->tcbs, src->n_tcbs * sizeof src->tcbs[0]);
    memcpy(dst->scs, src->scs, src->n_scs * sizeof src->scs[0]);
    memcpy(dst->ntfns, src->ntfns, src->n_ntfns * sizeof src->ntfns[0]);
    memcpy(dst->eps, src->eps, src->n_eps * sizeof src->eps[0]);
    memcpy(dst->replies, src->replies, sizeof dst->replies);
    memcpy(&dst->n_vcpus, &src->n_vcpus, offsetof(struct hk_state, n_irqs) - offsetof(struct hk_state, n_vcpus));
    dst->n_irqs = src->n_irqs;
    memcpy(dst->irq_state, src->irq_state, src->n_irqs);
    memcpy(dst->irq_masked, src->irq_masked, src->n_irqs);
    memcpy(dst->irq_acks, src->irq_acks, src->n_irqs);
    memcpy(dst->irq_cfg, src->irq_cfg, src->n_irqs);
    memcpy(dst->irq_cap, src->irq_cap, src->n_irqs * sizeof src->irq_cap[0]);
    dst->oor_irq = src->oor_irq;
    dst->oor_masked = src->oor_masked;
    dst->oor_acks = src->oor_acks;
    memcpy(dst->irq_active, src->irq_active, src->n_irqs);
    dst->oor_active = src->oor_active;
}

static void save(struct rk_kernel *k, const struct kstate *in, struct kstate *out)
{
    hk_copy_used(k, &k->hout, &k->hin);
    k->save(&k->hout);
    if (out != in)
        ks_copy(out, in);
    from_hk(&k->hout, out, build_cores(k), build_domains(k));
}

int rk_roundtrip(struct rk_kernel *k, const struct kstate *in, struct kstate *out)
{
    if (load(k, in, NULL) != 0)
        return -1;
    save(k, in, out);
    return 0;
}

/* the delivered IRQ's GIC active state after the entry, -1 none delivered */
static int irq_active_after(const struct hk_state *h, int irq)
{
    if (irq < 0)
        return -1;
    if (irq < h->n_irqs)
        return h->irq_active[irq];
    return h->oor_irq == irq ? h->oor_active : -1;
}

static int run(struct rk_kernel *k, const struct kstate *in, const struct rk_syscall *sys, int path,
               struct kstate *out, struct rk_extra *extra)
{
    if (load(k, in, sys) != 0)
        return -1;
    struct hk_extra x;
    /* a fault of the kernel's own code ends the entry as a halt */
    rk_fault_enter(k->fault);
    int why = k->entry(path, &x);
    rk_fault_leave();
    if (why < 0)
        return -1;
    save(k, in, out);
    /* the address space TTBR0 holds (setVMRoot): whose vspace the last
     * write installed; with no write it is the entry's (ks_copy in save) */
    if (x.ttbr0_writes)
        out->vspace = (int8_t)x.ttbr0_tcb;
    if (extra) {
        extra->outcome = x.outcome;
        extra->ttbr0_writes = x.ttbr0_writes;
        extra->ttbr0_asid = x.ttbr0_asid;
        extra->ttbr0_tcb = x.ttbr0_tcb;
        for (int c = 0; c < KS_MAX_CORES; c++)
            extra->fpu_owner[c] = x.fpu_owner[c];
        extra->fpu_enabled = x.fpu_enabled;
        extra->remote_calls = x.remote_calls;
        extra->irq_active = sys ? -1 : irq_active_after(&k->hout, in->active_irq);
        extra->fastpath_done = x.fastpath_done;
        memcpy(extra->text, x.text, sizeof extra->text);
    }
    return why;
}

int rk_run_x(struct rk_kernel *k, const struct kstate *in, int path, struct kstate *out, struct rk_extra *extra)
{
    return run(k, in, NULL, path, out, extra);
}

int rk_run_sys(struct rk_kernel *k, const struct kstate *in, const struct rk_syscall *sys, int path,
               struct kstate *out, struct rk_extra *extra)
{
    return run(k, in, sys, path, out, extra);
}

int rk_run(struct rk_kernel *k, const struct kstate *in, int path, struct kstate *out)
{
    return rk_run_x(k, in, path, out, NULL);
}

/* ---- generation restricted to the build ---- */

/* The kernel keeps one FPU owner per core (ksActiveFPUState), so at most
 * one thread per core can have fpu_live; the generator may set more. */
static void one_fpu_owner(struct kstate *ks)
{
    bool seen[KS_MAX_CORES] = {false};
    for (int i = 0; i < ks->n_tcbs; i++) {
        struct ks_tcb *t = &ks->tcbs[i];
        if (!t->fpu_live)
            continue;
        if (!ks->cfg.fpu || seen[t->affinity])
            t->fpu_live = false;
        seen[t->affinity] = true;
    }
}

int rk_gen_state(struct rk_kernel *k, struct kstate *ks, uint64_t seed, const struct gen_bounds *b)
{
    /* the build's compile-time configuration for every state
     * (gen_bounds.config): timer, WCET, maxIRQ, GIC, domains, cores, FPU.
     * Drawing a configuration and overwriting it afterwards would give
     * states made for another build: e.g. one made for one domain, whose
     * timer deadline ignores the domain's end, in a 16-domain kernel. */
    struct gen_bounds r = *b;
    r.config = &k->cfg;
    r.board = NULL;
    if ((unsigned)r.max_domains > k->cfg.num_domains)
        r.max_domains = (int)k->cfg.num_domains;
    r.allow_smp = k->cfg.smp;
    /* a hypervisor build's states have VCPU threads (gen_bounds.vcpus):
     * its interrupt path is VPPIEvent's and VGICMaintenance's too, and a
     * run that never drew them would say nothing of that code */
    r.vcpus = r.vcpus || k->cfg.hyp;
    struct gen_src src;
    gen_src_seed(&src, seed);
    if (gen_state(ks, &src, &r) != 0)
        return -1;
    one_fpu_owner(ks);
    return 0;
}
