// What a dependency walk says (missing_dependency.hpp, and each platform's dependencies.hpp): a
// dependency the system loader would not find, or one found without every function imported from
// it, with the chain of files that leads to it, as ONNX Runtime's dll_load_error.cc does: "a needs
// b, which needs c, which is not in any of: ...". One named constructor per finding, from the
// files' paths and names the walk found.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "../path_list.hpp"
#include "../searched_place.hpp"

namespace cushim {
namespace detail {
namespace {
namespace words {

// What a FIFO does to the system loader's search that meets it: the search never ends.
constexpr const char* fifo_blocks_text =
    "a FIFO, which the system loader opens and then waits on for a writer, forever";

// "/opt/x/libcudnn.so.9 needs libcudnn_graph.so.9, which needs libz.so.1, which ..."; a file in
// another folder than the one before it is named with its path.
inline std::string chain_text(const std::vector<std::string>& chain) {
  std::string text = chain.front();
  for (std::size_t i = 1; i < chain.size(); ++i) {
    text += " needs " + file_name_of(chain[i]);
    if (parent_dir(chain[i]) != parent_dir(chain[i - 1])) text += " (" + chain[i] + ")";
    text += ", which";
  }
  return text;
}

// Windows: a copy of a missing dependency in a PATH folder, as its search list names it.
inline std::string copy_on_path(const std::string& candidate) {
  return candidate + " (on PATH, which Windows does not search for the imports of a DLL loaded by full path: copy " +
         "it beside the DLL)";
}

// One place of a search list: "/usr/lib", "ld.so.cache: no entry",
// "ld.so.cache: /usr/lib/libcudnn_ops.so.9 (ends the search: not an ELF file)".
inline std::string place_text(const searched_place& p) {
  using finding = searched_place::finding;
  if (p.what == finding::on_path) return copy_on_path(p.path);
  std::string text = p.from_cache ? "ld.so.cache: " : "";
  if (p.what == finding::no_cache_entry) return text + "no entry";
  text += p.path;
  const char* marker = p.what == finding::passed_over     ? " (skipped: "
                       : p.what == finding::ends_search   ? " (ends the search: "
                       : p.what == finding::blocks_search ? " (blocks the search: "
                                                          : nullptr;
  if (!marker) return text;  // absent, named
  text += marker;
  text += p.what == finding::blocks_search ? std::string_view(fifo_blocks_text) : std::string_view(p.why);
  text += ')';
  return text;
}

// Each place of a search list, said; and all of them, joined.
inline std::vector<std::string> place_texts(const std::vector<searched_place>& places) {
  std::vector<std::string> texts;
  for (const searched_place& p : places) texts.push_back(place_text(p));
  return texts;
}
inline std::string places_text(const std::vector<searched_place>& places) {
  std::string text;
  for (std::size_t i = 0; i < places.size(); ++i) text += (i ? ", " : "") + place_text(places[i]);
  return text;
}

// The end of `chain` needs `name`, found in none of the places `searched` names.
inline std::string dependency_not_found(const std::vector<std::string>& chain, const std::string& name,
                                        const std::vector<searched_place>& searched) {
  return chain_text(chain) + " needs " + name + ", which is not in any of: " + places_text(searched);
}

// The end of `chain` imports functions from `name` that `found`, the file found for it, does not
// export (`absent`, the first named).
inline std::string functions_not_exported(const std::vector<std::string>& chain, const std::string& name,
                                          const std::string& found, const std::vector<std::string>& absent) {
  std::size_t n = absent.size();
  return chain_text(chain) + " imports " + std::to_string(n) + (n == 1 ? " function" : " functions") + " from " + name +
         " that " + found + " does not export (" + absent.front() + (n > 1 ? ", ..." : "") +
         "): Windows refuses it with error 127, the two files come from different releases";
}

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
