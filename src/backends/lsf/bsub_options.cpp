// bsub's option tables (LSF 10.1), each built when first read: yard starts without them.
#include "backends/lsf/bsub_options.h"

namespace yard::lsf {

// bsub's options that take a value (LSF 10.1); every other option bsub has takes none.
const std::set<std::string_view>& with_value() {
  static const std::set<std::string_view> kSet = {
    "-J", "-n", "-R", "-W", "-We", "-M", "-q", "-P", "-o", "-oo", "-e", "-eo", "-w", "-gpu", "-u", "-env", "-cwd",
    "-sp", "-G", "-g", "-m", "-app", "-b", "-t", "-E", "-Ep", "-L", "-k", "-C", "-c", "-D", "-F", "-p", "-S", "-v",
    "-T", "-i", "-is", "-f", "-a", "-Lp", "-U", "-ext", "-extsched", "-jsdl", "-jsdl_strict", "-data", "-datagrp",
    "-mig", "-alloc_flags", "-nnodes", "-sla", "-clusters", "-cn_cu", "-cn_mem", "-core_isolation", "-csm", "-ln_mem",
    "-ln_slots", "-hostfile", "-Jd", "-smt", "-stage", "-rnc", "-s", "-freq", "-network", "-outdir", "-ptl", "-pack",
    "-json", "-yaml", "-Q", "-eptl", "-env_file"};
  return kSet;
}
// Options of bsub that change nothing in the job's result here: read and warned about.
const std::set<std::string_view>& warned() {
  static const std::set<std::string_view> kSet = {
    "-We", "-G", "-g", "-m", "-app", "-L", "-k", "-C", "-c", "-D", "-F", "-p", "-S", "-v", "-T", "-a", "-Lp",
    "-U", "-ext", "-extsched", "-mig", "-alloc_flags", "-sla", "-cn_cu", "-cn_mem", "-core_isolation", "-csm",
    "-ln_mem", "-ln_slots", "-hostfile", "-Jd", "-smt", "-rnc", "-s", "-freq", "-network", "-ptl", "-Q", "-eptl",
    "-hl", "-ar", "-Ne", "-ul", "-Zs", "-ti", "-tty", "-outdir"};
  return kSet;
}
const std::map<std::string_view, std::string_view>& refused() {
  static const std::map<std::string_view, std::string_view> kSet = {
    {"-H", "a job submitted on hold is not supported"}, {"-b", "a job starting at a given time is not supported"},
    {"-t", "a termination deadline is not supported"}, {"-i", "a job's standard input from a file is not supported"},
    {"-is", "a job's standard input from a file is not supported"}, {"-E", "pre-execution commands are not supported"},
    {"-Ep", "post-execution commands are not supported"}, {"-f", "copying files to and from the job is not supported"},
    {"-data", "data requirements are not supported"}, {"-datagrp", "data requirements are not supported"},
    {"-stage", "staging is not supported"}, {"-pack", "job packs are not supported"},
    {"-jsdl", "JSDL files are not supported"}, {"-jsdl_strict", "JSDL files are not supported"},
    {"-json", "options from a file are not supported"}, {"-yaml", "options from a file are not supported"},
    {"-env_file", "options from a file are not supported"}, {"-clusters", "LSF's clusters are not supported"},
    {"-I", "interactive jobs are not supported"}, {"-Ip", "interactive jobs are not supported"},
    {"-Is", "interactive jobs are not supported"}, {"-IS", "interactive jobs are not supported"},
    {"-ISp", "interactive jobs are not supported"}, {"-ISs", "interactive jobs are not supported"},
    {"-IX", "interactive jobs are not supported"}, {"-XF", "X11 forwarding is not supported"}};
  return kSet;
}

}  // namespace yard::lsf
