/*
 * Wraps the kernel's include/machine.h: addrFromKPPtr asserts (debug
 * builds) that its argument lies in the kernel image's window, which no
 * host address does (the kernel's globals live in hostkernel.so). The
 * kernel's version is compiled under another name; this one does the
 * same arithmetic without the window check. Reached on the IRQ path by
 * setVMRoot's fall-back to the global user vspace.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#pragma once
#define addrFromKPPtr hk_unused_real_addrFromKPPtr
#include_next <machine.h>
#undef addrFromKPPtr

/* mirrors addrFromKPPtr (include/machine.h) minus the window asserts */
static inline paddr_t CONST addrFromKPPtr(const void *pptr)
{
    return (paddr_t)pptr - KERNEL_ELF_BASE_OFFSET;
}
