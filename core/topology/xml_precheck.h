#pragma once
// A small well-formedness pass over hwloc XML before hwloc sees it. hwloc
// reports a broken file only as "invalid" (and prints its own details on
// stderr); this pass finds the line that is wrong and the format version,
// so that a v3 file gets a message about versions rather than a parse error.

#include <string>

namespace schedscope {

struct XmlCheck {
    std::string version;   // the <topology version="..."> attribute, empty for v1 files
    int version_major = 0; // 1 when the attribute is absent (v1 files carry none)
    int version_line = 0;
    std::string error; // empty when the document is well formed
    int error_line = 0;
};

XmlCheck precheck_hwloc_xml(const std::string &text);

} // namespace schedscope
