// Text helpers for the runtime's diagnostics.
#include "runtime/base/DiagnosticText.h"

#include <cstdio>
#include <cstring>

namespace cutec::rt {

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

std::string dim3Text(const Dim3 &d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

std::string quoted(const char *what) { return what ? "'" + std::string(what) + "'" : "?"; }

bool sameInstruction(const char *a, const char *b) {
  return a == b || (a && b && std::strcmp(a, b) == 0);
}

std::string laneRanges(uint32_t mask) {
  std::string text;
  for (unsigned lane = 0; lane < 32;) {
    if (!(mask >> lane & 1)) {
      ++lane;
      continue;
    }
    unsigned last = lane;
    while (last + 1 < 32 && (mask >> (last + 1) & 1))
      ++last;
    if (!text.empty())
      text += ",";
    text += std::to_string(lane);
    if (last > lane)
      text += "-" + std::to_string(last);
    lane = last + 1;
  }
  return text;
}

} // namespace cutec::rt
