// The value model of an HLS playlist (RFC 8216 and draft-pantos-hls-rfc8216bis).
//
// Every element remembers the 1-based line it came from, so that every diagnostic downstream can
// point at the exact place in the file. Model types are plain Sendable values: the parser builds
// them once and nothing mutates them afterwards.

/// Where something is in a playlist file. `line` and `column` are 1-based; column 0 means "the
/// whole line".
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The playlist's URI as given to the parser (a path or URL string).
    public var uri: String
    /// 1-based line number; 0 means the whole file.
    public var line: Int
    /// 1-based column; 0 means the whole line.
    public var column: Int

    /// Makes a location; `column` defaults to 0, the whole line.
    public init(uri: String, line: Int, column: Int = 0) {
        self.uri = uri
        self.line = line
        self.column = column
    }

    /// `uri:line:column`, or `uri:line` when the column is 0.
    public var description: String {
        column > 0 ? "\(uri):\(line):\(column)" : "\(uri):\(line)"
    }
}

/// A content problem the parser found. Parsing never throws on content: it records a problem
/// and keeps going, like a compiler.
package struct PlaylistProblem: Sendable, Hashable {
    /// How serious a problem is: an error breaks a MUST of the specification, a warning a SHOULD or a
    /// likely mistake.
    package enum Severity: String, Sendable, Hashable, Codable {
        case error, warning
    }

    /// What sort of rule a problem breaks, so that the rules layer can map each to its own rule id.
    package enum Kind: String, Sendable, Hashable, Codable {
        /// A line, tag or attribute that breaks the grammar of RFC 8216 §4 (or a typed value).
        case syntax
        /// A structural rule that needs only this file: a missing or repeated tag, a tag of the
        /// wrong playlist kind, a URI line without its tag, …
        case structure
        /// EXT-X-VERSION is lower than a feature used in the file requires (RFC 8216 §7).
        case versionTooLow
        /// An EXT-X-DEFINE variable problem (rfc8216bis §4.3).
        case variable
        /// A rendition-group rule: references to undefined groups, duplicate NAMEs, several
        /// DEFAULT=YES members, DEFAULT=YES with AUTOSELECT=NO (RFC 8216 §4.3.4.1, §4.3.4.1.1, §4.3.4.2).
        case renditionGroup
    }

    /// Error or warning.
    package var severity: Severity
    /// What is wrong, for a person to read; names the tag or attribute involved.
    package var message: String
    /// Where the problem is, in the parsed playlist.
    package var location: SourceLocation
    /// Which kind of rule is broken; the rules layer maps it to a rule id.
    package var kind: Kind

    /// Makes a problem; `kind` defaults to `.syntax`.
    package init(_ severity: Severity, _ message: String, at location: SourceLocation, kind: Kind = .syntax) {
        self.severity = severity
        self.message = message
        self.location = location
        self.kind = kind
    }
}

/// A value of one attribute in an attribute list (RFC 8216 §4.2), with its raw text kept.
package enum AttributeValue: Sendable, Hashable {
    /// A decimal-integer (0 to 2^64-1, RFC 8216 §4.2).
    case decimalInteger(UInt64)
    /// A hexadecimal-sequence (`0x…`), as bytes.
    case hexadecimalSequence([UInt8])
    /// A non-negative decimal-floating-point.
    case decimalFloatingPoint(Double)
    /// A signed-decimal-floating-point.
    case signedDecimalFloatingPoint(Double)
    /// A quoted-string, quotes removed, after variable substitution.
    case quotedString(String)
    /// An enumerated-string (unquoted, e.g. `YES`, `AUDIO`).
    case enumeratedString(String)
    /// A decimal-resolution, `<width>x<height>`.
    case decimalResolution(Resolution)
}

/// A decimal-resolution attribute value (RFC 8216 §4.2), in pixels.
package struct Resolution: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int

    /// Makes a resolution from a width and height in pixels.
    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `<width>x<height>`, as written in a playlist.
    package var description: String { "\(width)x\(height)" }
}

/// One `NAME=value` pair of an attribute list, in file order.
package struct Attribute: Sendable, Hashable {
    /// The attribute name, e.g. `BANDWIDTH`.
    package var name: String
    /// The value text exactly as written (quotes included for quoted strings).
    package var rawValue: String
    /// 1-based column of the attribute name on its line.
    package var column: Int
    /// The typed value, when the parser knows the attribute's type and the value is well formed.
    /// Quoted strings and hexadecimal sequences are stored after variable substitution.
    package var value: AttributeValue?

    /// Makes an attribute; `value` is nil when untyped or malformed.
    package init(name: String, rawValue: String, column: Int, value: AttributeValue? = nil) {
        self.name = name
        self.rawValue = rawValue
        self.column = column
        self.value = value
    }

    /// The text of the value: a quoted string without its quotes (after substitution), otherwise
    /// the raw text.
    package var stringValue: String {
        switch value {
        case .quotedString(let s)?: return s
        case .enumeratedString(let s)?: return s
        default:
            if rawValue.count >= 2, rawValue.hasPrefix("\""), rawValue.hasSuffix("\"") {
                return String(rawValue.dropFirst().dropLast())
            }
            return rawValue
        }
    }
}

/// An attribute list in file order. Typed accessors interpret a value on demand.
package struct AttributeList: Sendable, Hashable {
    /// The attributes in file order. A repeated name is kept once, the first time (the repeat is
    /// a syntax error).
    package var attributes: [Attribute]

    /// Makes a list from attributes in file order.
    package init(_ attributes: [Attribute] = []) {
        self.attributes = attributes
    }

    /// The first attribute named `name`, nil when absent.
    package subscript(name: String) -> Attribute? {
        attributes.first { $0.name == name }
    }

    /// Whether an attribute named `name` is present (whatever its value).
    package func contains(_ name: String) -> Bool { self[name] != nil }

    /// A quoted-string or enumerated-string attribute's text (quotes removed).
    package func string(_ name: String) -> String? { self[name]?.stringValue }

    /// A decimal-integer attribute, nil when absent or malformed.
    package func decimalInteger(_ name: String) -> UInt64? {
        if case .decimalInteger(let v)? = self[name]?.value { return v }
        return nil
    }

    /// A decimal-floating-point (or signed, or integer) attribute, nil when absent or malformed.
    package func decimalFloatingPoint(_ name: String) -> Double? {
        switch self[name]?.value {
        case .decimalFloatingPoint(let v)?, .signedDecimalFloatingPoint(let v)?: return v
        case .decimalInteger(let v)?: return Double(v)
        default: return nil
        }
    }

    /// A decimal-resolution attribute, nil when absent or malformed.
    package func resolution(_ name: String) -> Resolution? {
        if case .decimalResolution(let r)? = self[name]?.value { return r }
        return nil
    }

    /// A hexadecimal-sequence attribute as bytes, nil when absent or malformed.
    package func hexadecimalSequence(_ name: String) -> [UInt8]? {
        if case .hexadecimalSequence(let v)? = self[name]?.value { return v }
        return nil
    }
}

/// Any `#EXT…` tag line, as written. Kept for every tag, known or not, so that vendor tags
/// (SCTE-35 cues, `#EXT-X-CUE-OUT`, …) are never dropped.
package struct Tag: Sendable, Hashable {
    /// Tag name including the leading `#`, e.g. `#EXT-X-STREAM-INF`.
    package var name: String
    /// Everything after the first `:`, or nil when the tag has no colon.
    package var value: String?
    /// 1-based line of the tag.
    package var line: Int

    /// Makes a tag; `name` includes the leading `#`.
    package init(name: String, value: String?, line: Int) {
        self.name = name
        self.value = value
        self.line = line
    }
}

package enum PlaylistContent: Sendable, Hashable {
    /// A multivariant playlist.
    case multivariant(MultivariantPlaylist)
    /// A media playlist.
    case media(MediaPlaylist)
}

/// A comment line: `#` not followed by `EXT` (RFC 8216 §4.1). Kept for in-file directives such
/// as `# hlscheck-disable-next-line RULE`.
package struct Comment: Sendable, Hashable {
    /// 1-based line of the comment.
    package var line: Int
    /// The whole line, `#` included.
    package var text: String

    /// Makes a comment.
    package init(line: Int, text: String) {
        self.line = line
        self.text = text
    }
}

/// One parsed playlist file: its model, every tag as written, and the problems found.
package struct Playlist: Sendable, Hashable, CustomReflectable {
    /// The URI the playlist was read from (a path or URL string), used in every location.
    package var uri: String
    /// The playlist's model: multivariant or media.
    package var content: PlaylistContent
    /// The tags, compactly: one small record each and their text in one buffer.
    var tagStore: TagStore
    /// Every problem the parser found, errors and warnings, in the order found.
    package var problems: [PlaylistProblem]
    /// Comment lines in file order.
    package var comments: [Comment] = []
    /// The variables in force after parsing (EXT-X-DEFINE NAME/VALUE, IMPORT and QUERYPARAM), so
    /// that a loader can pass a multivariant playlist's variables to its media playlists.
    package var variables: [String: String] = [:]
    /// The bytes it was parsed from, as a digest: embed compares it with the file before
    /// replacing the file, so that a change another program made meanwhile is never overwritten.
    package var sourceDigest = PlaylistSourceDigest([])
    /// The lowest EXT-X-VERSION the features the playlist uses require (RFC 8216 §7); 1 when
    /// nothing needs more. `version-too-low` reports a declared version below it.
    package var requiredVersion = 1

    /// Every `#EXT` tag in file order, known or not. Made on each read from compact storage (a
    /// playlist of 100 000 segments has 300 000 tags): to find tags by name, `tagLines(named:)`
    /// costs no string per tag.
    package var tags: [Tag] {
        get { tagStore.tags }
        set { tagStore = TagStore(newValue) }
    }

    /// The 1-based lines of the tags named `name` (leading `#` included), in file order.
    package func tagLines(named name: String) -> [Int] { tagStore.lines(named: name) }

    /// The problems with severity `.error`.
    package var errors: [PlaylistProblem] { problems.filter { $0.severity == .error } }
    /// The problems with severity `.warning`.
    package var warnings: [PlaylistProblem] { problems.filter { $0.severity == .warning } }

    /// Makes a playlist; `comments` and `variables` start empty.
    package init(uri: String, content: PlaylistContent, tags: [Tag], problems: [PlaylistProblem]) {
        self.init(uri: uri, content: content, tagStore: TagStore(tags), problems: problems)
    }

    init(uri: String, content: PlaylistContent, tagStore: TagStore, problems: [PlaylistProblem]) {
        self.uri = uri
        self.content = content
        self.tagStore = tagStore
        self.problems = problems
    }

    /// The public fields, in the order they were declared when each was stored.
    package var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "uri": uri as Any, "content": content as Any, "tags": tags as Any, "problems": problems as Any,
                "comments": comments as Any, "variables": variables as Any,
            ], displayStyle: .struct)
    }

    /// The multivariant model, nil for a media playlist.
    package var multivariant: MultivariantPlaylist? {
        if case .multivariant(let m) = content { return m }
        return nil
    }

    /// The media model, nil for a multivariant playlist.
    package var media: MediaPlaylist? {
        if case .media(let m) = content { return m }
        return nil
    }

    /// A location in this playlist: `column` 0 means the whole line.
    package func location(line: Int, column: Int = 0) -> SourceLocation {
        SourceLocation(uri: uri, line: line, column: column)
    }
}
