// Fibers: execution contexts with their own stacks that the CTA scheduler
// switches between cooperatively, so that an emulated thread can block at a
// barrier in the middle of its body and resume there later.
//
// On x86-64 the switch is a dozen instructions of hand-written assembly
// (callee-saved registers, the stack pointer and the SSE/x87 control words),
// about 100 times cheaper than swapcontext, which makes a system call to save
// the signal mask; elsewhere (or with -DCUTEC_RT_UCONTEXT_FIBERS) it is
// <ucontext.h>. Under AddressSanitizer every switch is announced through
// __sanitizer_{start,finish}_switch_fiber so that ASan follows the stacks.
#pragma once

#include <cstddef>
#include <span>

#if !defined(__x86_64__) && !defined(CUTEC_RT_UCONTEXT_FIBERS)
#define CUTEC_RT_UCONTEXT_FIBERS 1
#endif
#ifdef CUTEC_RT_UCONTEXT_FIBERS
#include <ucontext.h>
#endif

namespace cutec::rt {

using FiberEntry = void (*)(void *arg);

/// A suspended execution context. A default-constructed one stands for the
/// context that is running when it is first switched away from (a worker's
/// own stack).
struct FiberContext {
#ifdef CUTEC_RT_UCONTEXT_FIBERS
  ucontext_t context;
#else
  void *stackPointer = nullptr;
#endif
  FiberEntry entry = nullptr;
  void *arg = nullptr;
  // The stack this context runs on and its fake stack, for ASan.
  const void *stackBottom = nullptr;
  size_t stackSize = 0;
  void *fakeStack = nullptr;
};

/// Makes `fiber` run `entry(arg)` on `stack` when it is next switched to. The
/// entry must not return: it ends with `leaveFiber`. Whatever ran on `stack`
/// before is forgotten, so stacks are reused from one CTA to the next.
void prepareFiber(FiberContext &fiber, std::span<std::byte> stack, FiberEntry entry, void *arg);

/// Suspends the running context into `from` and resumes `to`.
void switchFiber(FiberContext &from, FiberContext &to);

/// Resumes `to` for good: the running context `from` is finished or
/// abandoned and will only run again after `prepareFiber`.
[[noreturn]] void leaveFiber(FiberContext &from, FiberContext &to);

} // namespace cutec::rt
