/*
 * rdmaffm native shim: real symbols for the verbs that rdma-core defines static inline,
 * and a table of struct sizes, field offsets and constants that the Java layouts are checked against.
 */
#ifndef RDMAFFM_SHIM_H
#define RDMAFFM_SHIM_H

#include <stdint.h>

#define RDMAFFM_API __attribute__((visibility("default")))

/* Bumped whenever an exported signature or the table format changes. */
#define RDMAFFM_SHIM_ABI 2

enum rdmaffm_layout_kind {
	RDMAFFM_SIZEOF = 0,
	RDMAFFM_OFFSETOF = 1,
	RDMAFFM_CONSTANT = 2,
};

struct rdmaffm_layout_entry {
	int32_t kind;
	const char *name;
	int64_t value;
};

#endif
