#include "ui/project_file.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include "ppsynth/study/config_json.hpp"

namespace ppsynth::ui {

namespace {

const QString kFormat = QStringLiteral("ppsynth-project");

QString charText(char c) {
    return c == 0 ? QString() : QString(QLatin1Char(c));
}
char textChar(const QString& s) {
    return s.isEmpty() ? 0 : s.at(0).toLatin1();
}

// Paths inside the project's folder are stored relative to it, so the folder can move.
QString storePath(const QString& path, const QDir& base) {
    const QString rel = base.relativeFilePath(path);
    return rel.startsWith(QStringLiteral("..")) ? QFileInfo(path).absoluteFilePath() : rel;
}
QString loadPath(const QString& stored, const QDir& base) {
    return QDir::cleanPath(base.absoluteFilePath(stored));
}

QJsonObject csvToJson(const data::CsvOptions& o) {
    QJsonArray tokens;
    for (const auto& t : o.missingTokens) tokens.append(QString::fromStdString(t));
    return {{QStringLiteral("delimiter"), charText(o.delimiter)},
            {QStringLiteral("quote"), charText(o.quote)},
            {QStringLiteral("header"), o.header},
            {QStringLiteral("encoding"), QString::fromStdString(o.encoding)},
            {QStringLiteral("decimal"), charText(o.decimal)},
            {QStringLiteral("thousands"), charText(o.thousands)},
            {QStringLiteral("missing_tokens"), tokens}};
}

data::CsvOptions csvFromJson(const QJsonObject& j) {
    data::CsvOptions o;
    o.delimiter = textChar(j.value(QStringLiteral("delimiter")).toString());
    // Cells are always quotable: an empty or missing quote means the usual double quote
    // (a NUL quote would end up in run.json as "\u0000").
    if (const char q = textChar(j.value(QStringLiteral("quote")).toString())) o.quote = q;
    o.header = j.value(QStringLiteral("header")).toBool(true);
    o.encoding = j.value(QStringLiteral("encoding")).toString(QStringLiteral("auto")).toStdString();
    o.decimal = textChar(j.value(QStringLiteral("decimal")).toString());
    o.thousands = textChar(j.value(QStringLiteral("thousands")).toString());
    if (j.contains(QStringLiteral("missing_tokens"))) {
        o.missingTokens.clear();
        for (const auto& t : j.value(QStringLiteral("missing_tokens")).toArray())
            o.missingTokens.push_back(t.toString().toStdString());
    }
    return o;
}

// The encoding as run configurations write it (data.read.stat_encoding): "auto" is what
// the file declares.
QJsonObject statToJson(const data::StatOptions& o) {
    return {{QStringLiteral("encoding"),
             o.encoding.empty() ? QStringLiteral("auto") : QString::fromStdString(o.encoding)}};
}

data::StatOptions statFromJson(const QJsonObject& j) {
    data::StatOptions o;
    const QString encoding = j.value(QStringLiteral("encoding")).toString();
    if (encoding.compare(QStringLiteral("auto"), Qt::CaseInsensitive) != 0)
        o.encoding = encoding.toStdString();
    return o;
}

QJsonArray stringList(const std::vector<std::string>& v) {
    QJsonArray a;
    for (const auto& s : v) a.append(QString::fromStdString(s));
    return a;
}
std::vector<std::string> fromStringList(const QJsonValue& v) {
    std::vector<std::string> out;
    for (const auto& s : v.toArray()) out.push_back(s.toString().toStdString());
    return out;
}
QJsonObject stringMap(const std::map<std::string, std::string>& m) {
    QJsonObject o;
    for (const auto& [key, value] : m)
        o.insert(QString::fromStdString(key), QString::fromStdString(value));
    return o;
}

// The data section core reads for us: everything but the roles (a project may be saved
// before the sensitive variable is chosen, which a run configuration does not allow).
QJsonObject coreDataSection(const QJsonObject& root, const QJsonObject& d, const QString& path) {
    QJsonObject out{{QStringLiteral("path"), path},
                    {QStringLiteral("target"), QStringLiteral("-")},
                    {QStringLiteral("transform"),
                     root.value(QStringLiteral("transform")).toString(QStringLiteral("none"))},
                    {QStringLiteral("missing"),
                     root.value(QStringLiteral("missing")).toString(QStringLiteral("error"))}};
    // Projects written before these keys were saved lack them: core's defaults apply.
    for (const auto& key : {QStringLiteral("types"), QStringLiteral("reference_levels"),
                            QStringLiteral("max_levels")})
        if (d.contains(key)) out.insert(key, d.value(key));
    return out;
}

}  // namespace

Status saveProject(const Project& project, const QString& path) {
    const QDir base = QFileInfo(path).absoluteDir();
    const auto& d = project.config.data;
    QJsonObject dataJson{{QStringLiteral("path"), storePath(project.dataPath, base)},
                         {QStringLiteral("csv"), csvToJson(project.csv)},
                         {QStringLiteral("stat"), statToJson(project.stat)},
                         {QStringLiteral("target"), QString::fromStdString(d.target)},
                         {QStringLiteral("predictors"), stringList(d.predictors)},
                         {QStringLiteral("known"), stringList(d.known)},
                         {QStringLiteral("types"), stringMap(d.types)},
                         {QStringLiteral("reference_levels"), stringMap(d.referenceLevels)},
                         {QStringLiteral("max_levels"), qint64(d.maxLevels)}};
    // The rest of the configuration in core's own format.
    const auto config = QJsonDocument::fromJson(QByteArray::fromStdString(toJson(project.config)));
    QJsonObject configJson = config.object();
    configJson.remove(QStringLiteral("data"));
    QJsonArray runs;
    for (const auto& r : project.runs)
        runs.append(QJsonObject{{QStringLiteral("folder"), storePath(r.folder, base)},
                                {QStringLiteral("label"), r.label},
                                {QStringLiteral("summary"), r.summary}});
    QJsonObject root{{QStringLiteral("format"), kFormat},
                     {QStringLiteral("version"), Project::kVersion},
                     {QStringLiteral("data"), dataJson},
                     {QStringLiteral("transform"), QString::fromStdString(d.transform)},
                     {QStringLiteral("missing"), QString::fromStdString(d.missing)},
                     {QStringLiteral("has_synthesizers"), project.hasSynthesizers},
                     {QStringLiteral("run_config"), configJson},
                     {QStringLiteral("runs"), runs}};
    if (!project.note.isEmpty()) root.insert(QStringLiteral("note"), project.note);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error{
            QStringLiteral("cannot write '%1': %2").arg(path, file.errorString()).toStdString()};
    file.write(QJsonDocument(root).toJson(QJsonDocument::Indented));
    if (!file.commit())
        return Error{
            QStringLiteral("cannot write '%1': %2").arg(path, file.errorString()).toStdString()};
    return {};
}

Expected<Project> loadProject(const QString& path) {
    QFile file(path);
    auto fail = [&path](const QString& what) {
        return Error{
            QStringLiteral("project '%1': %2").arg(QFileInfo(path).fileName(), what).toStdString()};
    };
    if (!file.open(QIODevice::ReadOnly)) return fail(file.errorString());
    QJsonParseError err;
    const QByteArray bytes = file.readAll();
    const auto doc = QJsonDocument::fromJson(bytes, &err);
    if (doc.isNull())
        return fail(QStringLiteral("not valid JSON (%1 at byte %2)")
                        .arg(err.errorString())
                        .arg(err.offset));
    // Qt keeps one of two equal keys silently; a project, like a configuration, refuses them.
    if (auto s = study::checkUniqueKeys(bytes.toStdString(), "project"); !s)
        return fail(QString::fromStdString(s.message()));
    const QJsonObject root = doc.object();
    if (root.value(QStringLiteral("format")).toString() != kFormat)
        return fail(QStringLiteral("not a ppsynth project (no \"format\": \"%1\")").arg(kFormat));
    const int version = root.value(QStringLiteral("version")).toInt();
    if (version < 1 || version > Project::kVersion)
        return fail(QStringLiteral("version %1 is not one this ppsynth reads (1 to %2)")
                        .arg(version)
                        .arg(Project::kVersion));
    const QDir base = QFileInfo(path).absoluteDir();
    Project p;
    const QJsonObject d = root.value(QStringLiteral("data")).toObject();
    const QString dataPath = d.value(QStringLiteral("path")).toString();
    if (dataPath.isEmpty()) return fail(QStringLiteral("\"data.path\" is missing"));
    p.dataPath = loadPath(dataPath, base);
    p.csv = csvFromJson(d.value(QStringLiteral("csv")).toObject());
    p.stat = statFromJson(d.value(QStringLiteral("stat")).toObject());
    p.hasSynthesizers = root.value(QStringLiteral("has_synthesizers")).toBool(true);
    p.note = root.value(QStringLiteral("note")).toString();

    // core checks the configuration; the roles are ours.
    QJsonObject config = root.value(QStringLiteral("run_config")).toObject();
    config.insert(QStringLiteral("data"), coreDataSection(root, d, p.dataPath));
    // A project saved with no synthesizer listed: parse with a stand-in, then drop it.
    if (!p.hasSynthesizers)
        config.insert(
            QStringLiteral("synthesizers"),
            QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("placeholder")},
                                   {QStringLiteral("scheme"), QStringLiteral("unweighted")}}});
    auto parsed = study::parseRunConfig(QJsonDocument(config).toJson().toStdString());
    if (!parsed) return fail(QString::fromStdString(parsed.message()));
    p.config = std::move(*parsed);
    if (!p.hasSynthesizers) p.config.synthesizers.clear();
    p.config.data.path = p.dataPath.toStdString();
    p.config.data.target = d.value(QStringLiteral("target")).toString().toStdString();
    p.config.data.predictors = fromStringList(d.value(QStringLiteral("predictors")));
    p.config.data.known = fromStringList(d.value(QStringLiteral("known")));
    for (const auto& r : root.value(QStringLiteral("runs")).toArray()) {
        const QJsonObject o = r.toObject();
        p.runs.push_back({loadPath(o.value(QStringLiteral("folder")).toString(), base),
                          o.value(QStringLiteral("label")).toString(),
                          o.value(QStringLiteral("summary")).toString()});
    }
    return p;
}

data::ReadOptions readOptionsOf(const Project& project) {
    data::ReadOptions o;
    o.csv = project.csv;
    o.stat = project.stat;
    o.maxLevels = project.config.data.maxLevels;
    for (const auto& [column, type] : project.config.data.types)
        if (auto t = data::columnTypeFromString(type)) o.typeOverrides.emplace_back(column, *t);
    return o;
}

}  // namespace ppsynth::ui
