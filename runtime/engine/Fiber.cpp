// Fiber context switching: x86-64 assembly or ucontext, plus the ASan
// annotations that let AddressSanitizer follow the switches.
#include "runtime/engine/Fiber.h"

#include <cstdint>
#include <cstring>

#if defined(__SANITIZE_ADDRESS__)
#define CUTEC_RT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CUTEC_RT_ASAN 1
#endif
#endif

#ifdef CUTEC_RT_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace cutec::rt {
namespace {

#ifdef CUTEC_RT_ASAN
/// The context that started the switch now finishing, so that the resumed
/// side can record where that context's stack is (ASan tells it).
thread_local FiberContext *switchingFrom = nullptr;

void startSwitch(FiberContext &from, FiberContext &to, bool fromEnds) {
  switchingFrom = &from;
  __sanitizer_start_switch_fiber(fromEnds ? nullptr : &from.fakeStack, to.stackBottom,
                                 to.stackSize);
}
void finishSwitch(void *fakeStack) {
  __sanitizer_finish_switch_fiber(fakeStack, &switchingFrom->stackBottom,
                                  &switchingFrom->stackSize);
}
void forgetStack(std::span<std::byte> stack) {
  // Frames abandoned on this stack left their redzones poisoned.
  ASAN_UNPOISON_MEMORY_REGION(stack.data(), stack.size());
}
#else
void startSwitch(FiberContext &, FiberContext &, bool) {}
void finishSwitch(void *) {}
void forgetStack(std::span<std::byte>) {}
#endif

/// Where every fiber starts, on its own stack.
[[noreturn]] void fiberMain(FiberContext *fiber) {
  finishSwitch(nullptr);
  fiber->entry(fiber->arg);
  __builtin_trap(); // entries end with leaveFiber
}

} // namespace

#ifdef CUTEC_RT_UCONTEXT_FIBERS

namespace {
/// makecontext passes int arguments only: the context pointer goes in halves.
void ucontextMain(unsigned high, unsigned low) {
  fiberMain(reinterpret_cast<FiberContext *>(uintptr_t(high) << 32 | low));
}
} // namespace

void prepareFiber(FiberContext &fiber, std::span<std::byte> stack, FiberEntry entry, void *arg) {
  forgetStack(stack);
  fiber.entry = entry;
  fiber.arg = arg;
  fiber.stackBottom = stack.data();
  fiber.stackSize = stack.size();
  getcontext(&fiber.context);
  fiber.context.uc_stack.ss_sp = stack.data();
  fiber.context.uc_stack.ss_size = stack.size();
  fiber.context.uc_link = nullptr;
  auto self = reinterpret_cast<uintptr_t>(&fiber);
  makecontext(&fiber.context, reinterpret_cast<void (*)()>(ucontextMain), 2,
              unsigned(uint64_t(self) >> 32), unsigned(self & 0xFFFFFFFFu));
}

void switchFiber(FiberContext &from, FiberContext &to) {
  startSwitch(from, to, false);
  swapcontext(&from.context, &to.context);
  finishSwitch(from.fakeStack);
}

void leaveFiber(FiberContext &from, FiberContext &to) {
  startSwitch(from, to, true);
  setcontext(&to.context);
  __builtin_trap();
}

#else // x86-64

extern "C" {
/// Saves the callee-saved state on the running stack, stores the stack
/// pointer to *save and continues on the stack `resume` with its saved state.
void cutec_rt_switch_stack(void **save, void *resume);
/// The first return address of a fiber: calls %r12(%r13).
void cutec_rt_fiber_start();
}

asm(R"(
  .text
  .globl cutec_rt_switch_stack
  .hidden cutec_rt_switch_stack
  .type cutec_rt_switch_stack, @function
cutec_rt_switch_stack:
  .cfi_startproc
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .cfi_endproc
  .size cutec_rt_switch_stack, .-cutec_rt_switch_stack

  .globl cutec_rt_fiber_start
  .hidden cutec_rt_fiber_start
  .type cutec_rt_fiber_start, @function
cutec_rt_fiber_start:
  .cfi_startproc
  .cfi_undefined rip
  movq %r13, %rdi
  callq *%r12
  ud2
  .cfi_endproc
  .size cutec_rt_fiber_start, .-cutec_rt_fiber_start
)");

void prepareFiber(FiberContext &fiber, std::span<std::byte> stack, FiberEntry entry, void *arg) {
  forgetStack(stack);
  fiber.entry = entry;
  fiber.arg = arg;
  fiber.stackBottom = stack.data();
  fiber.stackSize = stack.size();
  // The frame cutec_rt_switch_stack pops: control words, r15..r12, rbx, rbp,
  // return address. It starts 16-byte aligned so that cutec_rt_fiber_start
  // calls fiberMain with the stack alignment the ABI requires.
  auto top = reinterpret_cast<uintptr_t>(stack.data() + stack.size()) & ~uintptr_t(15);
  auto *frame = reinterpret_cast<uint64_t *>(top - 80);
  std::memset(frame, 0, 80);
  frame[0] = 0x1F80 | uint64_t(0x037F) << 32;        // default MXCSR and x87 control word
  frame[3] = reinterpret_cast<uint64_t>(&fiber);     // r13: the argument
  frame[4] = reinterpret_cast<uint64_t>(&fiberMain); // r12: the function
  frame[7] = reinterpret_cast<uint64_t>(&cutec_rt_fiber_start);
  fiber.stackPointer = frame;
}

void switchFiber(FiberContext &from, FiberContext &to) {
  startSwitch(from, to, false);
  cutec_rt_switch_stack(&from.stackPointer, to.stackPointer);
  finishSwitch(from.fakeStack);
}

void leaveFiber(FiberContext &from, FiberContext &to) {
  startSwitch(from, to, true);
  cutec_rt_switch_stack(&from.stackPointer, to.stackPointer);
  __builtin_trap();
}

#endif

} // namespace cutec::rt
