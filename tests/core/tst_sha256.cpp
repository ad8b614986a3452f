// SHA-256 against the FIPS 180-4 / NIST example vectors, fed whole and in odd-sized pieces
// (the buffering across 64-byte blocks is where an implementation goes wrong).
#include <QTest>
#include <filesystem>
#include <fstream>
#include <string>

#include "ppsynth/common/sha256.hpp"

using namespace ppsynth;

class TstSha256 : public QObject {
    Q_OBJECT
  private slots:
    void vectors_data() {
        QTest::addColumn<QByteArray>("message");
        QTest::addColumn<QString>("digest");
        QTest::newRow("empty")
            << QByteArray() << "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        QTest::newRow("abc") << QByteArray("abc")
                             << "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        QTest::newRow("448 bits")
            << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            << "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
        QTest::newRow("896 bits")
            << QByteArray(
                   "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmn"
                   "opjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu")
            << "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1";
        QTest::newRow("million a")
            << QByteArray(1000000, 'a')
            << "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
    }
    void vectors() {
        QFETCH(QByteArray, message);
        QFETCH(QString, digest);
        const std::string expected = digest.toStdString();
        const std::string_view bytes(message.constData(), static_cast<std::size_t>(message.size()));
        QCOMPARE(sha256Hex(bytes), expected);
        for (std::size_t piece : {1u, 3u, 55u, 63u, 64u, 65u, 997u}) {
            Sha256 h;
            for (std::size_t at = 0; at < bytes.size(); at += piece)
                h.update(bytes.substr(at, piece));
            QVERIFY2(toHex(h.finish()) == expected, std::to_string(piece).c_str());
        }
    }

    // Messages whose padding falls on either side of a block boundary (55, 56, 64 bytes).
    void paddingBoundaries() {
        QCOMPARE(sha256Hex(std::string(55, 'a')),
                 std::string("9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"));
        QCOMPARE(sha256Hex(std::string(56, 'a')),
                 std::string("b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"));
        QCOMPARE(sha256Hex(std::string(64, 'a')),
                 std::string("ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"));
    }

    void file() {
        const char* env = std::getenv("PPSYNTH_TEST_OUTPUT");
        const auto dir = std::filesystem::path(env && *env ? env : "/tmp") / "sha256";
        std::filesystem::create_directories(dir);
        const std::string path = (dir / "abc.bin").string();
        std::ofstream(path, std::ios::binary) << "abc";
        auto hex = sha256FileHex(path);
        QVERIFY(hex.hasValue());
        QCOMPARE(*hex,
                 std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        auto missing = sha256FileHex((dir / "no-such-file").string());
        QVERIFY(!missing.hasValue());
        QVERIFY(missing.message().find("no-such-file") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TstSha256)
#include "tst_sha256.moc"
