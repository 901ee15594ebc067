# SPDX-License-Identifier: BSD-2-Clause
# irqcov: build settings (the workspace layout of scripts/capture/setup.sh:
# this directory is copied to <ws>/projects/irqcov).
cmake_minimum_required(VERSION 3.7.2)
set(ws "${CMAKE_CURRENT_LIST_DIR}/../..")
list(APPEND CMAKE_MODULE_PATH ${ws}/kernel ${ws}/tools/seL4/cmake-tool/helpers/
     ${ws}/tools/seL4/elfloader-tool/ ${ws}/projects/musllibc ${ws}/projects/sel4runtime
     ${ws}/projects/util_libs)
set(SEL4_CONFIG_DEFAULT_ADVANCED ON)
include(application_settings)
set(PLATFORM "qemu-arm-virt" CACHE STRING "")
set(AARCH64 ON CACHE BOOL "")
correct_platform_strings()
find_package(seL4 REQUIRED)
sel4_configure_platform_settings()
set(SIMULATION ON CACHE BOOL "" FORCE)
ApplyCommonSimulationSettings(${KernelSel4Arch})
ApplyCommonReleaseVerificationSettings(FALSE FALSE)   # debug kernel, not verification
set(KernelIsMCS ON CACHE BOOL "" FORCE)
set(KernelFastpath ON CACHE BOOL "" FORCE)
set(KernelIRQFastpath ON CACHE BOOL "" FORCE)
# the EL1 physical timer (PPI 30) and counter are the workload's IRQ source
set(KernelArmExportPCNTUser ON CACHE BOOL "" FORCE)
set(KernelArmExportPTMRUser ON CACHE BOOL "" FORCE)
set(KernelRootCNodeSizeBits 12 CACHE STRING "" FORCE)
