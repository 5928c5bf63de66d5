//! The bench library. (Stub.)
