// SPDX-License-Identifier: Apache-2.0
// `kerntime run` and signals, without a GPU: whatever a user, a scheduler or a terminal sends
// reaches the program (stop and continue too), what the program sends itself is not sent back,
// and kerntime exits with the program's status.
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include "cli/signal_relay.hpp"
#include "run_cli_support.hpp"

namespace kerntime {
namespace {

using namespace run_cli_test;

// `kerntime run ARGS...` started directly, as a shell with job control starts it: every signal
// at its default (a script's `cmd &` would ignore SIGINT and SIGQUIT), in a process group of its
// own (so that a program's kill(0, ...) stays inside), standard error to `err`.
pid_t start_run(const std::vector<std::string>& args, const std::string& err) {
  const pid_t child = fork();
  if (child == 0) {
    setpgid(0, 0);
    for (int signal = 1; signal < NSIG; ++signal)
      std::signal(signal, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    const int fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) dup2(fd, 2);
    std::vector<char*> argv{const_cast<char*>(KERNTIME_CLI), const_cast<char*>("run")};
    for (const std::string& arg : args)
      argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    execv(KERNTIME_CLI, argv.data());
    _exit(127);
  }
  return child;
}

// Waits until `path` holds a whole line (a program's "ready" with its pid); its number or 0.
pid_t wait_for_ready(const std::string& path) {
  for (int i = 0; i < 500; ++i) {
    const std::string text = text_of(path);
    if (!text.empty() && text.back() == '\n') return static_cast<pid_t>(std::stol(text));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return 0;
}

// The exit status of `pid` as a shell reports it, or -1 (and the process killed) after 20 s.
int wait_for_exit(pid_t pid) {
  for (int i = 0; i < 2000; ++i) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return -1;
}

// The state letter of process `pid` in /proc (R, S, T for stopped, ...).
char process_state(pid_t pid) {
  const std::string stat = text_of("/proc/" + std::to_string(pid) + "/stat");
  const auto close = stat.rfind(')');
  return close == std::string::npos || close + 2 >= stat.size() ? '?' : stat[close + 2];
}

// A program that writes its pid to READY, then waits up to 5 s for signal SIGNAL (its name, as
// `trap` takes it), writes "got" to GOT and exits 7; 99 when none came.
std::string program_waiting_for(const std::string& signal, const std::string& ready,
                                const std::string& got) {
  return "trap 'echo got > " + got + "; exit 7' " + signal + "; echo $$ > " + ready + ".tmp; mv " +
         ready + ".tmp " + ready +
         "; i=0; while [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done; exit 99";
}

// Item 7: whatever a user or a scheduler sends to kerntime reaches the program, and kerntime
// exits with the program's status.
TEST(RunCli, PassesEverySignalSentToItOnToTheProgram) {
  const std::string folder = fresh_folder("kerntime_run_signals");
  const std::vector<std::pair<int, std::string>> signals{
      {SIGHUP, "HUP"},   {SIGINT, "INT"},   {SIGQUIT, "QUIT"}, {SIGTERM, "TERM"},
      {SIGUSR1, "USR1"}, {SIGUSR2, "USR2"}, {SIGALRM, "ALRM"}, {SIGWINCH, "WINCH"}};
  for (const auto& [signal, name] : signals) {
    const std::string ready = folder + "/" + name + ".ready";
    const std::string got = folder + "/" + name + ".got";
    const pid_t run = start_run({"--", "sh", "-c", program_waiting_for(name, ready, got)},
                                folder + "/" + name + ".err");
    ASSERT_NE(wait_for_ready(ready), 0) << name << ": " << text_of(folder + "/" + name + ".err");
    kill(run, signal);
    EXPECT_EQ(wait_for_exit(run), 7) << name << ": " << text_of(folder + "/" + name + ".err");
    EXPECT_EQ(text_of(got), "got\n") << name;
  }
}

TEST(RunCli, StopsAndContinuesWithTheProgram) {
  const std::string folder = fresh_folder("kerntime_run_stop");
  const std::string ready = folder + "/ready";
  const pid_t run = start_run({"--", "sh", "-c", program_waiting_for("TERM", ready, "/dev/null")},
                              folder + "/err");
  const pid_t program = wait_for_ready(ready);
  ASSERT_NE(program, 0) << text_of(folder + "/err");
  kill(run, SIGTSTP);
  // kerntime stops too, so that the shell that started it sees the job stopped.
  int status = 0;
  pid_t changed = 0;
  for (int i = 0; i < 1000 && changed == 0; ++i) {
    changed = waitpid(run, &status, WUNTRACED | WNOHANG);
    if (changed == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(changed, run);
  EXPECT_TRUE(WIFSTOPPED(status));
  for (int i = 0; i < 200 && process_state(program) != 'T'; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(process_state(program), 'T');
  kill(run, SIGCONT);
  for (int i = 0; i < 200 && process_state(program) == 'T'; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_NE(process_state(program), 'T');
  kill(run, SIGTERM);
  EXPECT_EQ(wait_for_exit(run), 7);
}

// A signal the program sends to kerntime (its parent) neither ends kerntime nor comes back.
TEST(RunCli, ASignalFromTheProgramItselfIsNotSentBack) {
  const std::string folder = fresh_folder("kerntime_run_own_signal");
  const std::string got = folder + "/got";
  const pid_t run =
      start_run({"--", "sh", "-c",
                 "trap 'echo back >> " + got + "' USR1; kill -USR1 $PPID; sleep 0.5; exit 4"},
                folder + "/err");
  EXPECT_EQ(wait_for_exit(run), 4) << text_of(folder + "/err");
  EXPECT_FALSE(exists(got));
}

// Ctrl-C at a terminal reaches the program directly (one process group); kerntime lets it
// decide, waits, and exits with its status.
TEST(RunCli, CtrlCAtATerminalIsTheProgramsToHandle) {
  const std::string folder = fresh_folder("kerntime_run_terminal");
  const std::string ready = folder + "/ready";
  const std::string got = folder + "/got";
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0) GTEST_SKIP() << "no pseudo-terminal here: " << std::strerror(errno);
  ASSERT_EQ(grantpt(master), 0);
  ASSERT_EQ(unlockpt(master), 0);
  const std::string terminal = ptsname(master);
  const std::string script = program_waiting_for("INT", ready, got);
  const pid_t run = fork();
  if (run == 0) {
    setsid();
    const int slave = open(terminal.c_str(), O_RDWR);
    ioctl(slave, TIOCSCTTY, 0);
    dup2(slave, 0);
    dup2(slave, 1);
    dup2(slave, 2);
    for (int signal = 1; signal < NSIG; ++signal)
      std::signal(signal, SIG_DFL);
    execl(KERNTIME_CLI, KERNTIME_CLI, "run", "--", "sh", "-c", script.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  ASSERT_NE(wait_for_ready(ready), 0);
  const char interrupt = 3;  // VINTR, Ctrl-C
  ASSERT_EQ(write(master, &interrupt, 1), 1);
  // Drain the terminal while waiting, so that nothing blocks on a full one.
  fcntl(master, F_SETFL, O_NONBLOCK);
  int status = -1;
  for (int i = 0; i < 2000 && status < 0; ++i) {
    char buffer[256];
    while (read(master, buffer, sizeof buffer) > 0) {
    }
    int raw = 0;
    if (waitpid(run, &raw, WNOHANG) == run)
      status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  close(master);
  if (status < 0) {
    kill(run, SIGKILL);
    waitpid(run, nullptr, 0);
  }
  EXPECT_EQ(status, 7);
  EXPECT_EQ(text_of(got), "got\n");
}

TEST(SignalRelay, PassesOnWhatNeitherTheTerminalNorTheProgramSent) {
  const auto from_program = [](pid_t sender) { return sender == 500 || sender == 501; };
  // kill(kerntime, ...) by a user or a scheduler.
  for (const int signal :
       {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGWINCH, SIGCONT, SIGTSTP}) {
    EXPECT_TRUE(cli::should_forward({signal, SI_USER, 42}, from_program)) << signal;
    EXPECT_TRUE(cli::should_forward({signal, SI_QUEUE, 42}, from_program)) << signal;
  }
  // The terminal sends these to the whole foreground group: the program has them already.
  for (const int signal : {SIGINT, SIGQUIT, SIGTSTP, SIGWINCH, SIGHUP, SIGCONT}) {
    EXPECT_FALSE(cli::should_forward({signal, SI_KERNEL, 0}, from_program)) << signal;
  }
  // kerntime's own timer is not the program's.
  EXPECT_TRUE(cli::should_forward({SIGALRM, SI_KERNEL, 0}, from_program));
  // The program, or a child of it, sent it (kill(0, ...), or to its parent).
  EXPECT_FALSE(cli::should_forward({SIGTERM, SI_USER, 500}, from_program));
  EXPECT_FALSE(cli::should_forward({SIGUSR1, SI_TKILL, 501}, from_program));
  EXPECT_TRUE(cli::is_descendant(getpid(), getppid()));
  EXPECT_TRUE(cli::is_descendant(getpid(), getpid()));
  EXPECT_FALSE(cli::is_descendant(getppid(), getpid()));
}

}  // namespace
}  // namespace kerntime
