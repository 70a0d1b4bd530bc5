/// What `DIR/playlist.m3u8` lists (`--playlist`).
public enum PlaylistScope: String, Sendable, CaseIterable {
    /// Every item in DIR: earlier pushes' entries first, in the order they had, then the latest
    /// delivery's, in its payload's order.
    case all
    /// Only the latest push's items in DIR, in its order: a screen plays what the server sends
    /// now, not last month's promotion.
    case latest
}
