// Confidential output (the disclosure-review report, exported charts, whose SVGs hold the
// exact coordinates of confidential values) must never land inside a release bundle, which
// is made to be handed out as a whole. Every place where the GUI picks such a destination
// asks here first; the rule and its search are core's (ppsynth/release/bundle_guard.hpp),
// shared with the CLI.
#pragma once

#include <QString>

namespace ppsynth::ui {

// The release bundle folder `path` is in (or is): the nearest folder, from `path` up to the
// root, holding a manifest.json that ppsynth's release writer made. Empty when there is none.
QString releaseBundleAround(const QString& path);

// Why `path` may not receive confidential output, in words a person can act on; empty when
// it may. `what` names the output ("the disclosure-review report").
QString confidentialDestinationProblem(const QString& path, const QString& what);

}  // namespace ppsynth::ui
