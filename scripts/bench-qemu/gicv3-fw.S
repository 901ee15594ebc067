/*
 * gicv3-fw.S: the two things board firmware (e.g. Arm Trusted Firmware)
 * does for a non-secure kernel on a GICv3 before it boots, and QEMU's
 * virt machine without firmware does not: wake CPU 0's redistributor
 * (GICR_WAKER.ProcessorSleep = 0, then wait for ChildrenAsleep = 0) and
 * put every SGI, PPI and SPI into non-secure group 1 (GICR_IGROUPR0,
 * GICD_IGROUPR1..4: QEMU resets them to group 0, which it signals as
 * FIQ). seL4 at PR #1227's head expects both done ("we expect
 * redistributors to be already awoken by an earlier loader"); master
 * (a later commit) does them itself on qemu-arm-virt. Then it jumps to
 * the elfloader's entry, ENTRY (--defsym), with x0 = 0 as QEMU's own
 * boot does for an ELF image.
 *
 * Addresses: QEMU virt, GICD at 0x08000000, the first redistributor at
 * 0x080A0000 (RD_base; SGI_base = RD_base + 0x10000).
 * scripts/bench-qemu.sh assembles it per image and loads it with
 * -device loader,cpu-num=0 so that CPU 0 starts here.
 *
 * Own code (irqsim). SPDX-License-Identifier: BSD-2-Clause
 */
    .text
    .global _start
_start:
    ldr x0, =0x080A0014     /* GICR_WAKER */
    str wzr, [x0]           /* ProcessorSleep = 0 */
1:  ldr w1, [x0]
    tbnz w1, #2, 1b         /* until ChildrenAsleep = 0 */
    mov w1, #-1
    ldr x0, =0x080B0080     /* GICR_IGROUPR0: SGIs and PPIs */
    str w1, [x0]
    ldr x0, =0x08000084     /* GICD_IGROUPR1..4: SPIs 32..159 */
    str w1, [x0], #4
    str w1, [x0], #4
    str w1, [x0], #4
    str w1, [x0]
    ldr x2, =ENTRY
    mov x0, xzr
    br x2
    .ltorg
