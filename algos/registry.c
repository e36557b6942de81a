/* SPDX-License-Identifier: MIT */
/*
 * registry.c - the list of algorithms (docs/algorithms.md describes each one).
 */
#include <string.h>

#include "algos.h"

extern const struct algorithm algo_pbcast, algo_sbt, algo_reduce, algo_hk, algo_hampath,
	algo_irruns, algo_irrunssf, algo_direx, algo_rdmesh, algo_mstnaive, algo_mstcf, algo_rsbcast,
	algo_standexch, algo_rowcol, algo_linexch1, algo_linexch2, algo_binexch, algo_quadexch,
	algo_quadexchh, algo_torusaas2;
/* One-to-all broadcasts on meshes (Barnett et al.; IR row then column). */
extern const struct algorithm algo_def, algo_defap, algo_sc1d, algo_sc2d, algo_irrowcol,
	algo_irrowcolct;
/* All-to-all broadcast (docs/algorithms.md#all-to-all-broadcast-gossip). */
extern const struct algorithm algo_aabdimex, algo_aabflood, algo_aabmeshxy, algo_aabmeshyx,
	algo_aabbcast, algo_aabbcastnaive;
/* Rings and tori (docs/microarchitecture.md section 12). */
extern const struct algorithm algo_rdring, algo_rdringnf, algo_ringaas1, algo_ringaas2,
	algo_aabtorusxy, algo_aabtorusyx, algo_aabham2;

const struct algorithm *const algorithms[] = {
	&algo_pbcast,
	&algo_sbt,
	&algo_reduce,
	&algo_hk,
	&algo_hampath,
	&algo_irruns,
	&algo_irrunssf,
	&algo_rdmesh,
	&algo_rdring,
	&algo_rdringnf,
	&algo_mstnaive,
	&algo_mstcf,
	&algo_rsbcast,
	&algo_def,
	&algo_defap,
	&algo_sc1d,
	&algo_sc2d,
	&algo_irrowcol,
	&algo_irrowcolct,
	&algo_direx,
	&algo_standexch,
	&algo_rowcol,
	&algo_linexch1,
	&algo_linexch2,
	&algo_binexch,
	&algo_quadexch,
	&algo_quadexchh,
	&algo_ringaas1,
	&algo_ringaas2,
	&algo_torusaas2,
	&algo_aabdimex,
	&algo_aabflood,
	&algo_aabmeshxy,
	&algo_aabmeshyx,
	&algo_aabtorusxy,
	&algo_aabtorusyx,
	&algo_aabham2,
	&algo_aabbcast,
	&algo_aabbcastnaive,
	NULL,
};

const struct algorithm *algo_find(const char *name)
{
	for (int k = 0; algorithms[k]; k++)
		if (strcmp(algorithms[k]->name, name) == 0)
			return algorithms[k];
	return NULL;
}

const char *collective_kind_name(enum collective_kind k)
{
	static const char *const names[] = {
		[COLL_ONE_TO_ALL] = "one-to-all", [COLL_AAS] = "AAS", [COLL_AAB] = "AAB",
		[COLL_REDUCE] = "reduction",
	};

	return k <= COLL_REDUCE ? names[k] : "?";
}
