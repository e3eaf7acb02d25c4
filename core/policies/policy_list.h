// The built-in policies, one line each, in the order `list` shows them.
// SCHEDSCOPE_POLICY(id) names the function `PolicyInfo id_policy_info()`
// defined in the policy's own file. No include guard: policies/factories.h
// includes it to declare those functions and builtin_policies.cpp to list
// them, each with its own definition of the macro. A list in one file keeps
// the order fixed and needs no static registrar (which a static library's
// link would drop).
SCHEDSCOPE_POLICY(simple)
SCHEDSCOPE_POLICY(linux25_numa)
SCHEDSCOPE_POLICY(sched_domains)
SCHEDSCOPE_POLICY(cfs)
SCHEDSCOPE_POLICY(autonuma)
SCHEDSCOPE_POLICY(sched_numa)
SCHEDSCOPE_POLICY(bind)
SCHEDSCOPE_POLICY(round_robin)
