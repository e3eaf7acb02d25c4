// The built-in workloads, one line each, in the order `list` shows them.
// SCHEDSCOPE_WORKLOAD(id) names the function `WorkloadInfo
// id_workload_info()` defined in the workload's own file. No include guard:
// workloads/factories.h includes it to declare those functions and
// builtin_workloads.cpp to list them, each with its own macro.
SCHEDSCOPE_WORKLOAD(spin)
SCHEDSCOPE_WORKLOAD(numa01)
SCHEDSCOPE_WORKLOAD(numa01_thread_alloc)
SCHEDSCOPE_WORKLOAD(numa02)
SCHEDSCOPE_WORKLOAD(numa02_smt)
SCHEDSCOPE_WORKLOAD(stream)
SCHEDSCOPE_WORKLOAD(hackbench)
SCHEDSCOPE_WORKLOAD(kernbench)
SCHEDSCOPE_WORKLOAD(numa_test)
SCHEDSCOPE_WORKLOAD(sembench)
SCHEDSCOPE_WORKLOAD(specjbb)
SCHEDSCOPE_WORKLOAD(oltp)
