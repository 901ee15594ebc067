# Toolchain file for configuring a seL4 tree with the host's gcc: irqsim
# only takes the generated headers and the kernel_all.c file list from the
# kernel's build, so no aarch64 cross compiler is needed.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_C_COMPILER ${CMAKE_CURRENT_LIST_DIR}/hostcc.sh)
set(CMAKE_ASM_COMPILER ${CMAKE_CURRENT_LIST_DIR}/hostcc.sh)
set(CMAKE_C_COMPILER_WORKS 1)
set(CMAKE_ASM_COMPILER_WORKS 1)
