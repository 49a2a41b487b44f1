// NormLab widgets: the experiment form's fields (widgets/designer.cpp), each
// by its JSON path (docs/CONFIG.md), grouped by paper, with its label and the
// equation its tooltip shows. Labels and tooltips mark scripts as
// widgets/math_text.h does ("α_{t}", "W_{O}"); both are translation sources.
#pragma once

#include <vector>

namespace normlab::designer_fields {

enum class Kind { Int, Double, OptDouble, Bool, Enum, Path };

struct Field {
    const char* path;
    const char* label;
    Kind kind;
    const char* tip;
    std::vector<const char*> choices = {};
};

struct Group { const char* title; std::vector<Field> fields; };

// The form, in its order.
const std::vector<Group>& groups();

}  // namespace normlab::designer_fields
