#pragma once
// The model constants (ModelParams) as one ParamTable, declared in
// model_params.cpp: each constant's name, accepted range, meaning and the
// member it sets. ModelParams::set(), get() and fields(), `list` and the
// table in docs/machines.md are read from it.

#include "engine/model_params.h"
#include "params/param_table.h"

namespace schedscope {

const ParamTable<ModelParams> &model_params_table();

} // namespace schedscope
