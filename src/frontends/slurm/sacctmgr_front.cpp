// sacctmgr list|show user|assoc[iation]: the accounts of yard's policy (policy.yaml), one
// association per account for the user, in sacctmgr's columns; -n, -p/-P as sacctmgr.
#include <iostream>

#include "frontends/slurm/front.h"

namespace yard::slurm_front {
namespace {

struct Column {
  std::string name;
  std::size_t width;
};

std::string cell(const std::string& v, std::size_t w) {
  if (v.size() > w) return v.substr(0, w - 1) + "+";
  return std::string(w - v.size(), ' ') + v;
}

}  // namespace

int sacctmgr_main(const Args& args) {
  bool header = true;
  int parsable = 0;
  std::vector<std::string> words;
  for (const auto& a : args) {
    if (a == "-n" || a == "--noheader") header = false;
    else if (a == "-p" || a == "--parsable") parsable = 1;
    else if (a == "-P" || a == "--parsable2") parsable = 2;
    else if (a == "-i" || a == "--immediate" || a == "-Q" || a == "--quiet") continue;
    else words.push_back(a);
  }
  if (words.size() < 2 || (words[0] != "list" && words[0] != "show" && words[0] != "ls"))
    return fail("sacctmgr", "yard's sacctmgr knows `list user` and `list assoc` only (the accounts of yard's policy)");
  const std::string what = words[1];
  const bool user = what == "user" || what == "users";
  const bool assoc = what.rfind("assoc", 0) == 0;
  if (!user && !assoc) return fail("sacctmgr", "Unknown entity: " + what + " (yard's sacctmgr: user, assoc)");
  auto c = client("sacctmgr");
  auto accounts = c.accounts();
  if (!accounts) return fail("sacctmgr", accounts.error());
  const std::string me = user_name();
  const std::string default_account = accounts->accounts.empty() ? me : accounts->accounts.front().account;
  std::vector<Column> columns;
  std::vector<std::vector<std::string>> rows;
  if (user) {
    columns = {{"User", 10}, {"Def Acct", 10}, {"Admin", 9}};
    rows.push_back({me, default_account, "None"});
  } else {
    // sacctmgr's default columns; the limits yard's policy does not set are blank.
    columns = {{"Cluster", 10}, {"Account", 10}, {"User", 10}, {"Partition", 10}, {"Share", 9}, {"Priority", 10},
               {"GrpJobs", 7}, {"GrpTRES", 13}, {"GrpSubmit", 9}, {"GrpWall", 11}, {"GrpTRESMins", 13},
               {"MaxJobs", 7}, {"MaxTRES", 13}, {"MaxTRESPerNode", 14}, {"MaxSubmit", 9}, {"MaxWall", 11},
               {"MaxTRESMins", 13}, {"QOS", 20}, {"Def QOS", 9}, {"GrpTRESRunMin", 13}};
    auto row = [&](const std::string& account, const std::string& share) {
      std::vector<std::string> r(columns.size());
      r[0] = "yard";
      r[1] = account;
      r[2] = me;
      r[4] = share;
      r[17] = "normal";
      rows.push_back(r);
    };
    if (accounts->accounts.empty()) row(me, "1");
    for (const auto& a : accounts->accounts) row(a.account, std::to_string(static_cast<long>(a.share > 0 ? a.share : 1)));
  }
  auto print = [&](const std::vector<std::string>& values) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (parsable) std::cout << values[i] << (parsable == 1 || i + 1 < values.size() ? "|" : "");
      else std::cout << cell(values[i], columns[i].width) << " ";
    }
    std::cout << "\n";
  };
  if (header) {
    std::vector<std::string> names;
    for (const auto& col : columns) names.push_back(col.name);
    print(names);
    if (!parsable) {
      for (const auto& col : columns) std::cout << std::string(col.width, '-') << " ";
      std::cout << "\n";
    }
  }
  for (const auto& r : rows) print(r);
  return 0;
}

}  // namespace yard::slurm_front
