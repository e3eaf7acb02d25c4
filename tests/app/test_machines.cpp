#include "test_machines.h"

namespace schedscope::test {

Topology make_machine(const MachineShape &s)
{
    Topology t;
    t.set_name("test machine");
    t.set_source("test");
    TopoObject machine;
    machine.type = ObjType::Machine;
    const ObjId root = t.add(machine, kNoObj);
    int pu_os = 0, numa_os = 0;
    for (int p = 0; p < s.packages; ++p) {
        TopoObject pkg;
        pkg.type = ObjType::Package;
        pkg.os_index = p;
        const ObjId pk = t.add(pkg, root);
        if (s.numa_per_package) {
            TopoObject node;
            node.type = ObjType::NUMANode;
            node.os_index = numa_os++;
            node.memory_bytes = node.os_index == s.odd_node ? s.odd_node_memory_bytes : s.node_memory_bytes;
            t.add(node, pk, true);
        }
        ObjId core_parent = pk;
        if (s.l3_per_package) {
            TopoObject l3;
            l3.type = ObjType::L3;
            l3.cache_size_bytes = std::uint64_t{16} << 20;
            l3.cache_line_bytes = 64;
            core_parent = t.add(l3, pk);
        }
        for (int c = 0; c < s.cores_per_package; ++c) {
            TopoObject core;
            core.type = ObjType::Core;
            core.os_index = c;
            const ObjId co = t.add(core, core_parent);
            for (int u = 0; u < s.pus_per_core; ++u) {
                TopoObject pu;
                pu.type = ObjType::PU;
                pu.os_index = pu_os++;
                t.add(pu, co);
            }
        }
    }
    t.finalize();
    return t;
}

} // namespace schedscope::test
