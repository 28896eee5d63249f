//! Clients that use the apiserver like anyone else: client-go's pager, reflector and informer
//! (spec §f).
