public import HLSCheck
public import HLSPackaging

/// What `hlscheck embed` was asked to do.
public struct EmbedRequest: Sendable {
    public enum Destination: Sendable, Hashable {
        /// Write a complete copy of the stream into this folder.
        case folder(String)
        /// Rewrite the stream where it is: new segments under new names, the playlists swapped in
        /// last (the old stream or the new one for every reader, never a mix).
        case inPlace
    }

    /// The multivariant or media playlist.
    public var input: String
    /// The poster to embed; nil removes the poster instead.
    public var poster: Poster?
    /// How messages name the image (its file name).
    public var posterName: String
    public var destination: Destination
    /// Only these variants/renditions (URIs as written or resolved); empty: every audio-only
    /// variant and every audio rendition.
    public var variants: [String]
    /// Write even when the result exceeds the budget.
    public var force: Bool
    /// Re-encode the image smaller until the result fits the budget.
    public var fit: Bool
    public var configuration: CheckConfiguration
    /// When another `hlscheck embed` holds the stream's lock: wait for it (true) or refuse.
    public var wait = false
    /// Messages for the user while the run goes on (waiting for the lock, leftovers removed).
    public var report: @Sendable (String) -> Void = { _ in }
    /// Called before each step of writing (a chunk written, a rename, a removal) with the count
    /// so far: the test suite stops or kills the process at chosen steps.
    public var writeStepHook: (@Sendable (Int) -> Void)?

    public init(
        input: String, poster: Poster?, posterName: String, destination: Destination, variants: [String] = [],
        force: Bool = false, fit: Bool = false, configuration: CheckConfiguration = CheckConfiguration()
    ) {
        self.input = input
        self.poster = poster
        self.posterName = posterName
        self.destination = destination
        self.variants = variants
        self.force = force
        self.fit = fit
        self.configuration = configuration
    }
}

/// Why nothing was written. Every description names the file and what to do.
public struct EmbedError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// What was written, and the check of the result.
public struct EmbedOutcome: Sendable {
    public struct Target: Sendable, Hashable {
        public var uri: String
        public var segments: Int
        public var peakBefore: Int?
        public var peakAfter: Int?
        public var averageAfter: Int?
        /// What the rewrite kept or added besides the poster (a PRIV timestamp packed audio needs).
        public var notes: [String] = []
    }

    /// The playlist to give players: the written copy of the input.
    public var output: String
    public var targets: [Target]
    /// Set when `--fit` re-encoded the image: what it chose.
    public var fittedImage: String?
    /// The checker's report on the written stream.
    public var verification: CheckReport
}
