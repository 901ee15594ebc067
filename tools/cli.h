/*
 * cli: what every irqsim command does alike on its command line: one
 * option parser driven by a table per command, the option kinds every
 * command reads the same way (a target, a kernel, a board, a number in a
 * range, a choice), --fastpath for a target, and the board list its errors
 * give. (The files commands write, and the "# " comment block a reproducer
 * carries its verdict in: check/out.h.)
 */
#ifndef IRQSIM_CLI_H
#define IRQSIM_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The exit statuses of every command (README, "Exit status"): one
 * definition, so that no command words its own. */
enum irqsim_exit {
    EXIT_AGREE = 0,        /* the paths agree; nothing found; --help */
    EXIT_DIVERGE = 1,      /* they diverge; what the command looks for was found (a
                              mismatch, a branch not reached, a refused state) */
    EXIT_USAGE = 2,        /* bad input: an option, a file, a state; or out of memory */
    EXIT_CANNOT_BUILD = 3, /* the real kernel cannot be built here (real/build-kernel.sh's 3) */
    EXIT_OUTPUT = 4,       /* an output could not be written (check/out.h's OUT_FAILED) */
    EXIT_INCOMPLETE = 5,   /* no divergence in what was done, but that is not what was
                              asked: nothing checked, or a bound stopped short
                              (check/stop.h's RUN_INCOMPLETE) */
    EXIT_UNRUN = 6,        /* review: nothing new, but changed kernel code that no
                              state executed (or a change not measured) */
};

/* How an option's value is read, and what it is stored as. */
enum cli_kind {
    CLI_SET,    /* no value: sets a bool to true */
    CLI_CLEAR,  /* no value: sets a bool to false (--no-smp, --quiet) */
    CLI_STR,    /* a string, kept as given (a path, a name checked later) */
    CLI_INT,    /* a whole number in [lo, hi] into an int */
    CLI_U64,    /* a whole number in [lo, hi] into a uint64_t */
    CLI_REAL,   /* a number in [lo, hi] into a double */
    CLI_TARGET, /* a target's name into a const struct target * */
    CLI_KERNEL, /* a kernel version's name into an int (enum ks_kernel) */
    CLI_BOARD,  /* a board preset's name into a const char * */
    CLI_CHOICE, /* one of `choices` ("slow|fast") into an int: its index */
    CLI_VARIANT, /* a variant of the default target's fastpath (the commands
                    that take no --target) into an int */
    CLI_FN,     /* the command's own reader: fn(opts, value) */
};

struct cli_opt {
    const char *name;  /* "--seed" */
    enum cli_kind kind;
    size_t off;        /* where the value goes: offsetof in the command's options */
    double lo, hi;     /* CLI_INT, CLI_U64, CLI_REAL */
    const char *choices; /* CLI_CHOICE */
    /* CLI_FN: 0, or -1 after writing what is wrong into why */
    int (*fn)(void *opts, const char *val, char *why, size_t len);
    size_t seen;       /* offsetof a bool set when the option is given; 0 for none */
};

/* A bound so large no one means it: errors say "from LO" alone (seeds,
 * checks, states: below 2^64, which a double cannot hold exactly). */
#define CLI_UNBOUNDED 1e15

/* Shorthands for the table rows: O is the command's options struct. */
#define CLI_ROW(O, n, k, f) {n, k, offsetof(O, f), 0, 0, NULL, NULL, 0}
#define CLI_NUM(O, n, k, f, l, h) {n, k, offsetof(O, f), l, h, NULL, NULL, 0}
#define CLI_PICK(O, n, f, c) {n, CLI_CHOICE, offsetof(O, f), 0, 0, c, NULL, 0}
#define CLI_CALL(n, fn) {n, CLI_FN, 0, 0, 0, NULL, fn, 0}

/* A command: its name (for errors), its usage text (--help prints it), how
 * an error points to it, its options and what it does with an argument
 * that is not an option (NULL: it takes none). */
struct cli_cmd {
    const char *name;      /* "exhaust", or "fuzz" for the commands sharing one table */
    const char *usage;     /* what --help prints */
    const char *hint;      /* errors end "(HINT lists the options)"; NULL: with the usage */
    const struct cli_opt *opts;
    int n_opts;
    int (*arg)(void *opts, const char *arg, char *why, size_t len);
};

/* Parse argv[first..argc) into o by c's table. Returns 0, 1 when --help
 * printed the usage, or 2 (the usage status) after an error naming the
 * command, the option and the problem. */
int cli_parse(const struct cli_cmd *c, void *o, int first, int argc, char **argv);
/* An error of c's after its table was read (two options that exclude each
 * other, a missing file), worded as cli_parse words its own; returns 2. */
int cli_error(const struct cli_cmd *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* --fastpath's value `given` (NULL: not given, the fastpath as written)
 * among t's variants into *variant; 0, or 2 after an error naming the
 * command and t's variants, with note appended ("" for none). */
struct target;
int cli_variant(const char *cmd, const struct target *t, const char *given, const char *note, int *variant);

/* "imx8mm imx8mq ... qemu-arm-virt3": every preset of sim/config.c, the
 * boards --board takes, into buf. */
const char *cli_boards(char *buf, size_t len);

/* Print a usage text with its lists taken from the tables they name, so
 * that no usage falls behind them: "{boards}" is cli_boards' list,
 * "{defects:T}" target T's defect ids ("F1-F12", defect_ids) and
 * "{defects:T:K}" those kernel K can show ("F1-F8, F10-F12" on base).
 * cli_parse prints a command's usage (--help, an error) through it. */
void cli_usage(FILE *f, const char *usage);

#endif
