// Linux: the distribution's package records, as dpkg keeps them (/var/lib/dpkg/status for each
// package's version, /var/lib/dpkg/info/<package>.list for its files). rpm keeps its records in a
// database (rpmdb.sqlite, Packages) that no text reading can follow: where one is, a note says
// its packages were not read.
#pragma once

#include <string>
#include <vector>

#include "../packages.hpp"
#include "../../words/inventory.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

constexpr std::size_t dpkg_status_limit = 64u << 20;

// "Package: x" -> its "Version:", for every package dpkg says is installed.
inline std::map<std::string, std::string> dpkg_versions(const std::string& status) {
  std::map<std::string, std::string> versions;
  std::string package, version;
  bool installed = false;
  auto end_stanza = [&] {
    if (installed && !package.empty()) versions[package] = version;
    package.clear(), version.clear(), installed = false;
  };
  discovery::for_each_line(status, [&](std::string_view line) {
    if (line.empty()) return end_stanza();
    if (line.compare(0, 9, "Package: ") == 0) package = std::string(discovery::trimmed(line.substr(9)));
    if (line.compare(0, 9, "Version: ") == 0) version = std::string(discovery::trimmed(line.substr(9)));
    if (line.compare(0, 8, "Status: ") == 0) installed = line.find("installed") != std::string_view::npos;
  });
  end_stanza();
  return versions;
}

inline void read_system_packages(const discovery::context& ctx, discovery::package_records& records,
                                 std::vector<std::string>& notes) {
  for (const char* rpm : {"/var/lib/rpm/rpmdb.sqlite", "/var/lib/rpm/Packages"}) {
    if (check_path(ctx.system_path(rpm)).kind == path_kind::file) {
      notes.push_back(discovery::words::rpm_not_read(ctx.system_path(rpm)));
      break;
    }
  }
  discovery::text_file status = discovery::read_text(ctx.system_path("/var/lib/dpkg/status"), dpkg_status_limit);
  if (!status.exists()) return;
  if (!status.ok()) return notes.push_back(discovery::words::cannot_be_read(status.path, status.error));
  if (status.truncated()) notes.push_back(status.truncation_note());
  std::map<std::string, std::string> versions = dpkg_versions(status.text);
  std::string info = ctx.system_path("/var/lib/dpkg/info");
  for (const std::string& file : discovery::names_starting(info, "", notes)) {
    if (file.size() < 6 || file.compare(file.size() - 5, 5, ".list") != 0) continue;
    std::string package = file.substr(0, file.size() - 5);
    package = package.substr(0, package.find(':'));  // libcudnn9-cuda-13:amd64
    if (!discovery::nvidia_package_name(package)) continue;
    discovery::text_file list = discovery::read_text(join_path(info, file), discovery::package_list_limit);
    if (!list.ok()) {
      notes.push_back(discovery::words::cannot_be_read(list.path, list.error));
      continue;
    }
    if (list.truncated()) notes.push_back(list.truncation_note());
    auto version = versions.find(package);
    discovery::package_record r{"package", package, version == versions.end() ? "" : version->second, "dpkg"};
    discovery::for_each_line(list.text, [&](std::string_view line) {
      if (line.find(".so") != std::string_view::npos) records.add(ctx.system_path(line), r);
    });
  }
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
