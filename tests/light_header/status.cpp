// light_header_check's control: <cushim/status.hpp> does include <string>, <string_view> and
// <vector>, so a check that finds none of them in light.cpp has really looked.
#include <cushim/status.hpp>

size_t use() { return cushim::explain().size() + cushim::status_of(cushim::library::cudnn).attempts.size(); }
