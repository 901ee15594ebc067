# The configuration matrix (after SQLite's permutations.test): the checks
# that hold whatever the kernel version and the fastpath target, run once
# per cell from one list, instead of hand-picked copies per configuration.
# A new target or kernel version is one word in a list below; its cells
# then run every check. Each check names what would make it fail.
#
#   fixed_agrees     the corrected fastpath agrees with the slowpath on
#                    20,000 generated states, every state and outcome
#                    through the invariant checker (--check-every 1)
#   written_defects  the fastpath as written shows every defect its table
#                    says that kernel can show ("not found: ..." fails)
#   exhaust_fixed    the corrected fastpath agrees on every state of the
#                    smallest bound (exit 0; 1 is a divergence)
#   workload_fixed   the corrected fastpath agrees on 10 generated
#                    workloads from boot, every reached state admitted
#                    (quick tier; workload_fixed_long, 50 workloads, is
#                    in the campaign tier)
# TARGET:KERNEL; a target that models one kernel's fastpath only (the call
# target: master's fastpath_call) has that kernel's cell alone
set(IRQSIM_MATRIX_CELLS irq:base irq:master signal:base signal:master call:master reply_recv:master)
foreach(tk ${IRQSIM_MATRIX_CELLS})
    string(REPLACE ":" ";" tk_list ${tk})
    list(GET tk_list 0 t)
    list(GET tk_list 1 k)
    set(cell matrix_${t}_${k})
    set(on --target ${t} --kernel ${k})
    add_test(NAME ${cell}_fixed_agrees
             COMMAND irqsim fuzz ${on} --fastpath fixed --checks 20000 --seed 1 --check-every 1 --quiet)
    # exit 0: no divergence and no generated state broke an invariant (2)
    add_test(NAME ${cell}_written_defects COMMAND irqsim fuzz ${on} --checks 100000 --seed 1 --quiet)
    set_tests_properties(${cell}_written_defects PROPERTIES
      PASS_REGULAR_EXPRESSION "defects: [1-9]"
      FAIL_REGULAR_EXPRESSION "not found:;GENERATOR BUG;CHECKER OR MODEL ERROR")
    add_test(NAME ${cell}_exhaust_fixed COMMAND irqsim exhaust ${on} --fastpath fixed --threads 1 --quiet)
    foreach(w "" _long)
      set(n 10)
      if(w)
        set(n 50)
      endif()
      add_test(NAME ${cell}_workload_fixed${w}
               COMMAND irqsim fuzz --mode workload ${on} --fastpath fixed --checks ${n} --seed 1 --quiet)
      set_tests_properties(${cell}_workload_fixed${w} PROPERTIES FAIL_REGULAR_EXPRESSION "CHECKER OR MODEL ERROR")
    endforeach()
    irqsim_campaign(${cell}_workload_fixed_long)
endforeach()
