import HLSPlaylist

extension PlaylistProblem.Kind {
    /// Parser problems that have a rule of their own rather than playlist-syntax/-lenient.
    static let ownRules: Set<PlaylistProblem.Kind> = [.versionTooLow, .renditionGroup]
}

extension StreamAnalysis {
    /// The problems the parser found in every playlist of the stream, as findings.
    func parserFindings(_ include: (PlaylistProblem) -> Bool) -> [Finding] {
        playlists.flatMap(\.problems).filter(include).map { Finding($0.message, at: $0.location) }
    }
}
