public import HLSCheck

/// GitHub Actions workflow commands, one per finding, which the runner turns into annotations on
/// the pull request: `::error file=PATH,line=N,col=C,title=hlscheck RULE::MESSAGE`.
public struct GitHubActionsReporter: Sendable {
    /// Makes a reporter.
    public init() {}

    /// One workflow command line per unsuppressed finding, for every report, in report order.
    public func render(_ reports: [CheckReport]) -> String {
        // An excused finding is not an annotation on the pull request.
        reports.flatMap(\.diagnostics).filter { !$0.suppressed }.map(command).map { $0 + "\n" }.joined()
    }

    /// Text from playlists goes through `TerminalText.escaped` first: the log view renders
    /// escape sequences. Line breaks are left to `escapeData`.
    func command(_ diagnostic: Diagnostic) -> String {
        let name = switch diagnostic.severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
        var properties: [String] = []
        if let location = diagnostic.location {
            properties.append("file=\(Self.escapeProperty(TerminalText.escaped(location.uri, keepingLineBreaks: true)))")
            if location.line > 0 {
                properties.append("line=\(location.line)")
                if location.column > 0 { properties.append("col=\(location.column)") }
            }
        }
        properties.append("title=\(Self.escapeProperty("hlscheck \(diagnostic.rule)"))")
        return "::\(name) \(properties.joined(separator: ","))::\(Self.escapeData(TerminalText.escaped(diagnostic.message, keepingLineBreaks: true)))"
    }

    /// The message after `::`; GitHub's runner decodes `%25`, `%0D` and `%0A`.
    static func escapeData(_ text: String) -> String {
        var out = ""
        for character in text.unicodeScalars {
            switch character {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// A property value, where `:` and `,` would also end the value early.
    static func escapeProperty(_ text: String) -> String {
        var out = ""
        for character in escapeData(text).unicodeScalars {
            switch character {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
