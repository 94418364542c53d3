import Foundation
import HLSCheck
import HLSPlaylist
import TestSupport
import Testing

/// hlscheck's pass/fail verdict against the corpus files whose source projects label them
/// `valid` or `INVALID`: an `INVALID` file must get at least one error, a `valid` one none.
/// Only errors located in the file itself count: `playlist-unreadable` and `uri-outside-root`
/// concern the playlists it references, which the corpus does not hold, and findings located in
/// another file are that file's verdict.
@Suite("Corpus pass/fail agreement")
struct CorpusAgreementTests {
    struct Verdict {
        var path: String
        var labelledValid: Bool
        var errors: [String]
    }

    static func verdicts(in corpus: URL) async -> [Verdict] {
        var configuration = CheckConfiguration(playlistOnly: true)
        Profile.rfc8216.configure(&configuration)
        configuration.confinement = Confinement(root: corpus.path)
        let checker = Checker(configuration: configuration)
        var verdicts: [Verdict] = []
        for entry in Corpus.playlists where entry.isValid || entry.isInvalid {
            let path = corpus.appendingPathComponent(entry.corpus_path).path
            var errors: [String]
            do {
                errors = try await checker.check(path).diagnostics.filter {
                    $0.severity == .error && !$0.suppressed && $0.location?.uri == path
                        && !["playlist-unreadable", "uri-outside-root"].contains($0.rule)
                }.map { "\($0.rule) line \($0.location?.line ?? 0): \($0.message)" }
            } catch {
                errors = ["the check could not run: \(error.description)"]
            }
            verdicts.append(Verdict(path: entry.corpus_path, labelledValid: entry.isValid, errors: errors))
        }
        return verdicts
    }

    @Test(.enabled(if: Corpus.directory != nil, "needs ../shared/corpus"))
    func verdictsAgreeWithTheSpecLabelledSets() async throws {
        let corpus = try #require(Corpus.directory)
        let verdicts = await Self.verdicts(in: corpus)
        try #require(verdicts.count > 600, "the corpus index lists \(verdicts.count) labelled playlists")

        let overridden = CorpusExceptions.validButBreaksSpec.merging(CorpusAgreementExceptions.validButBreaksSpec) {
            $1
        }
        var disagreements: [String: [String]] = [:]
        var agreeWithLabels = 0
        for verdict in verdicts {
            // The verdict the spec asks for: the label, unless an exception cites the spec against it.
            let specValid =
                verdict.labelledValid
                ? overridden[verdict.path] == nil
                : CorpusAgreementExceptions.invalidButAllowedBySpec[verdict.path] != nil
            if verdict.errors.isEmpty == verdict.labelledValid { agreeWithLabels += 1 }
            if verdict.errors.isEmpty != specValid { disagreements[verdict.path] = verdict.errors }
            // An exception that no longer holds must go.
            if overridden[verdict.path] != nil, verdict.labelledValid {
                #expect(
                    !verdict.errors.isEmpty,
                    "\(verdict.path) is listed as breaking the spec but gets no error: remove it from the exceptions")
            }
            if CorpusAgreementExceptions.invalidButAllowedBySpec[verdict.path] != nil {
                #expect(
                    verdict.errors.isEmpty,
                    "\(verdict.path) is listed as allowed by the spec but gets \(verdict.errors)")
            }
        }
        for (path, errors) in disagreements.sorted(by: { $0.key < $1.key })
        where CorpusAgreementExceptions.knownDisagreements[path] == nil {
            Issue.record(
                "\(path): hlscheck \(errors.isEmpty ? "reports no error" : "reports \(errors.prefix(3))") against its spec verdict; fix the checker or list it with the spec sentence"
            )
        }
        for path in CorpusAgreementExceptions.knownDisagreements.keys where disagreements[path] == nil {
            Issue.record("\(path) is listed as a known disagreement but now agrees: remove it")
        }
        let agreement = Double(verdicts.count - disagreements.count) / Double(verdicts.count)
        #expect(agreement >= 0.98, "agreement \(agreement) over \(verdicts.count) labelled playlists")
        // The figures for the record (swift test prints them).
        print(
            "corpus agreement: \(verdicts.count - disagreements.count) of \(verdicts.count) with the spec verdict, \(agreeWithLabels) with the source projects' labels"
        )
    }
}
