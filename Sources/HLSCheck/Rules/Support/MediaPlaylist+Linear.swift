import HLSPlaylist

extension MediaPlaylist {
    /// Live and linear: no EXT-X-ENDLIST, and not an EVENT playlist (which only grows).
    var isLinear: Bool { !endList && playlistType == nil }
}
