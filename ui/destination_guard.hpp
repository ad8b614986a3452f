// Every place where the GUI picks a destination to write (a project and its run folders, a
// report, a release bundle) proves it writable before starting the work, with core's check
// (ppsynth/common/destination.hpp), shared with the CLI.
#pragma once

#include <QString>

#include "ppsynth/common/destination.hpp"

namespace ppsynth::ui {

// Why `path` cannot be written as `use` says, as a sentence a person can act on; empty when
// it can.
QString unwritableDestinationProblem(const QString& path,
                                     DestinationUse use = DestinationUse::Replaced);

}  // namespace ppsynth::ui
