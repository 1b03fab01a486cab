// Placeholder so that SwiftPM accepts the target while it is being written; delete when the target has real sources.
