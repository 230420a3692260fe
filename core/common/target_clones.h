#pragma once
// QL_TARGET_CLONES("avx512f", "avx2", "default"): one copy of a hot loop per instruction set, chosen when the
// program loads by an ifunc resolver. Under ThreadSanitizer the compiler instruments that resolver, which then runs
// before TSan is set up and crashes the program at startup; those builds keep the default copy alone.
#if defined(__SANITIZE_THREAD__)
#define QL_NO_TARGET_CLONES 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define QL_NO_TARGET_CLONES 1
#endif
#endif

#ifdef QL_NO_TARGET_CLONES
#define QL_TARGET_CLONES(...)
#else
#define QL_TARGET_CLONES(...) __attribute__((target_clones(__VA_ARGS__)))
#endif
