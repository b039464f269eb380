// Every library cushim knows: its descriptor (detail/libraries/) and, in library_tables.inc, its
// table of functions. Both, and both lists, are generated from tools/libraries.json
// (api/descriptors.inc, api/library_tables.inc).
#pragma once

#include "../../api/descriptors.inc"
#include "../search/words/loading.hpp"
#include "../search/state.hpp"

namespace cushim {
namespace detail {
namespace {

// In library order (cushim::library's values), whatever order the list names them in.
constexpr const library_descriptor* listed_descriptors[] = {CUSHIM_DESCRIPTORS};
static_assert(sizeof listed_descriptors / sizeof listed_descriptors[0] == library_count,
              "every cushim::library has one descriptor (tools/libraries.json)");

struct descriptor_table {
  const library_descriptor* by_id[library_count] = {};
};
constexpr descriptor_table place_by_id() {
  descriptor_table table;
  for (const library_descriptor* d : listed_descriptors) table.by_id[int(d->id)] = d;
  return table;
}
inline constexpr descriptor_table descriptor_slots = place_by_id();
inline constexpr const library_descriptor* const (&descriptors)[library_count] = descriptor_slots.by_id;

constexpr bool descriptors_in_library_order() {
  for (int i = 0; i < library_count; ++i) {
    if (!descriptors[i] || int(descriptors[i]->id) != i) return false;
  }
  return true;
}
static_assert(descriptors_in_library_order(), "each cushim::library value needs its own descriptor");

inline const library_descriptor& descriptor_of(library lib) { return *descriptors[int(lib)]; }

// Whether a value is one of cushim::library's: the public functions answer every other value
// (library(99), library(-1)) without looking anything up.
inline bool known_library(library lib) { return int(lib) >= 0 && int(lib) < library_count; }

// Whether the reports show a library: one this build shims, or one it could shim and leaves to the
// program (the runtime under CUSHIM_NO_CUDART). An opt-in library the program did not opt into is
// none of its concern.
inline bool in_reports(const library_descriptor& d) { return d.shimmed || !d.opt_in; }

// A library this build does not shim is "disabled" from the start and never loaded.
inline shim_state::shim_state() {
  for (int i = 0; i < library_count; ++i) {
    const library_descriptor& d = *descriptors[i];
    status& st = libraries[i].st;
    libraries[i].desc = &d;
    st.lib = library(i);
    st.compiled_version = d.compiled_version;
    if (d.shimmed) continue;
    st.code = error_code::disabled;
    st.problems.push_back(problems_of::not_shimmed(d));
  }
}

// The fork handlers, registered as the module starts, before any thread can be inside cushim: a
// fork that finds no state makes one, so that no thread can make one and begin a pass behind it.
[[maybe_unused]] inline const bool fork_handlers_registered = [] {
  platform::on_fork([] { shim().forks.before_fork(); }, [] { shim().forks.after_fork_in_parent(); },
                    [] { shim().forks.after_fork_in_child(); });
  return true;
}();

}  // namespace
}  // namespace detail
}  // namespace cushim
