import Foundation
import TestSupport
import Testing

/// docs/design.md describes the code as it is: it names types, files and targets in backticks.
/// These tests fail when a name there is declared nowhere, a file it names is gone, or a target
/// under Sources/ has no place in it — so the document cannot drift silently while the code is
/// renamed around it.
@Suite struct DesignDocumentTests {
    /// Names the document may use that the project does not declare: Swift's, Foundation's,
    /// swift-argument-parser's and FFmpeg's, and the compiler feature every target enables.
    static let externalNames: Set<String> = [
        "Sendable", "ContinuousClock", "Date", "Task", "ParsableArguments", "AVIOContext", "InternalImportsByDefault",
    ]

    static func document() throws -> String {
        try String(contentsOf: PackageRoot.url.appendingPathComponent("docs/design.md"), encoding: .utf8)
    }

    @Test func everyTypeTheDocumentNamesIsDeclaredInSources() throws {
        let named = DesignDocument.typeNames(in: try Self.document())
        let declared = try DesignDocument.declaredNames(under: PackageRoot.url)
        let missing = named.subtracting(declared).subtracting(Self.externalNames).sorted()
        #expect(
            missing.isEmpty,
            """
            docs/design.md names \(missing.joined(separator: ", ")) in backticks, but no struct, enum, class, \
            protocol, actor, typealias, extension or func of that name is in Sources/ (nor a target in \
            Package.swift): write the name the code uses now, or drop it
            """)
    }

    @Test func everyFileTheDocumentNamesExists() throws {
        let root = PackageRoot.url
        let files = DesignDocument.codeSpans(in: try Self.document()).filter(DesignDocument.isFileReference)
        let existing = Set(
            ["Sources", "Tests"].flatMap { DesignDocument.swiftFiles(in: root.appendingPathComponent($0)) }.map(
                \.lastPathComponent))
        for file in files {
            let exists =
                file.contains("/")
                ? FileManager.default.fileExists(atPath: root.appendingPathComponent(file).path)
                : existing.contains(file)
            #expect(
                exists, "docs/design.md names `\(file)`, which is not in the package: write where it is now, or drop it"
            )
        }
    }

    @Test func everyTargetUnderSourcesHasAPlaceInTheDocument() throws {
        let spans = Set(DesignDocument.codeSpans(in: try Self.document()))
        let folders = try FileManager.default.contentsOfDirectory(
            atPath: PackageRoot.url.appendingPathComponent("Sources").path)
        #expect(folders.count > 5)
        for folder in folders where !folder.hasPrefix(".") {
            #expect(
                spans.contains(folder) || spans.contains("Sources/\(folder)"),
                "Sources/\(folder) is a target docs/design.md does not describe: give it its section under Modules")
        }
    }

    /// The scanners themselves: what counts as a type name in the document, and as a declaration.
    @Test func typeNamesAreTheUpperCamelCaseIdentifiersOfCodeSpansOutsideFences() {
        let markdown = """
            The `Checker.check(_:)` engine renders `[CheckReport]`, never `EXT-X-MAP`, `APIC` or
            `ID3Tag`; not `Stream #1/master.m3u8`, `hlscheck embed`, `--playlist-only` or `Folder.swift`.
            ```
            `InsideAFence`
            ```
            Then `SegmentRequest.InitSection`.
            """
        #expect(
            DesignDocument.typeNames(in: markdown) == [
                "Checker", "CheckReport", "ID3Tag", "SegmentRequest", "InitSection",
            ])
        #expect(DesignDocument.codeSpans(in: markdown).filter(DesignDocument.isFileReference) == ["Folder.swift"])
    }

    @Test func declarationsOfEveryKindCountAndCommentedOnesDoNot() throws {
        let source = """
            public struct Plain: Sendable {}
            final class Owner<Value> {}
            package actor Slots {}
            protocol Source {}
            typealias Put = (Int) -> Void
            extension Array where Element == Int {}
            func MakeIt() {}
            enum lowercase {}
            // struct Commented {}
                /// class AlsoCommented
            """
        #expect(
            try DesignDocument.declarations(in: source) == [
                "Plain", "Owner", "Slots", "Source", "Put", "Array", "MakeIt",
            ])
    }
}

/// Reading docs/design.md and the sources the way the tests above need.
enum DesignDocument {
    /// The inline code spans of `markdown`, outside fenced blocks, in order.
    static func codeSpans(in markdown: String) -> [String] {
        var spans: [String] = []
        var inFence = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                continue
            }
            guard !inFence else { continue }
            let parts = line.split(separator: "`", omittingEmptySubsequences: false)
            // Odd-numbered parts lie between a pair of backticks.
            for index in stride(from: 1, to: parts.count - 1, by: 2) where !parts[index].isEmpty {
                spans.append(String(parts[index]))
            }
        }
        return spans
    }

    /// A span naming a file: a path in the package, or a Swift file's name.
    static func isFileReference(_ span: String) -> Bool {
        guard !span.contains(" ") else { return false }
        return ["Sources/", "Tests/", "docs/"].contains { span.hasPrefix($0) } || span.hasSuffix(".swift")
    }

    /// The UpperCamelCase identifiers (an upper-case first letter and a lower-case letter
    /// somewhere) in the code spans that read as Swift — identifiers, member access, argument
    /// labels, brackets — rather than as tags (`EXT-X-MAP`), paths, commands or file names.
    static func typeNames(in markdown: String) -> Set<String> {
        let codeCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_.():[]<>, "))
        var names: Set<String> = []
        for span in codeSpans(in: markdown) where !isFileReference(span) {
            guard span.unicodeScalars.allSatisfy(codeCharacters.contains) else { continue }
            for word in span.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }) {
                guard let first = word.first, first.isUppercase, first.isASCII, word.contains(where: \.isLowercase)
                else { continue }
                names.insert(String(word))
            }
        }
        return names
    }

    /// The names `source` declares with struct, enum, class, protocol, actor, typealias,
    /// extension or func, UpperCamelCase only; lines that are comments are skipped.
    static func declarations(in source: String) throws -> [String] {
        let declaration = try NSRegularExpression(
            pattern:
                #"(?:^|[^A-Za-z0-9_])(?:struct|enum|class|protocol|actor|typealias|extension|func)\s+([A-Z][A-Za-z0-9_]*)"#
        )
        var names: [String] = []
        for line in source.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
            let text = String(line)
            for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let name = Range(match.range(at: 1), in: text) { names.append(String(text[name])) }
            }
        }
        return names
    }

    /// Every Swift file under `folder`.
    static func swiftFiles(in folder: URL) -> [URL] {
        guard let paths = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return paths.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map {
            folder.appendingPathComponent($0)
        }
    }

    /// What Sources/ declares, and the target and product names of Package.swift.
    static func declaredNames(under root: URL) throws -> Set<String> {
        var names: Set<String> = []
        for file in swiftFiles(in: root.appendingPathComponent("Sources")) {
            names.formUnion(try declarations(in: String(contentsOf: file, encoding: .utf8)))
        }
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        for part in manifest.components(separatedBy: "name: \"").dropFirst() {
            if let end = part.firstIndex(of: "\"") { names.insert(String(part[..<end])) }
        }
        return names
    }
}
