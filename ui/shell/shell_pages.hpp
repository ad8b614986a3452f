// The window's pages, as the controllers of ui/shell see them: the window owns them, the
// controllers read and fill them.
#pragma once

class QTabWidget;

namespace ppsynth::ui {

namespace results {
class StudiesPage;
}

class DataPage;
class ModelPage;
class RunPanel;
class SynthesizersPage;

struct ShellPages {
    QTabWidget* tabs = nullptr;
    DataPage* data = nullptr;
    ModelPage* model = nullptr;
    SynthesizersPage* synthesizers = nullptr;
    RunPanel* run = nullptr;
    results::StudiesPage* studies = nullptr;
};

}  // namespace ppsynth::ui
