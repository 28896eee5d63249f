//! `rvlab`: runs playground scripts in the terminal and prints JSON Lines.
fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    std::process::exit(cli::main());
}

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    pub fn main() -> i32 {
        let args: Vec<String> = std::env::args().skip(1).collect();
        match args.first().map(String::as_str) {
            Some("--version") | Some("-V") => {
                println!("rvlab {}", rvlab::VERSION);
                0
            }
            _ => {
                eprintln!("usage: rvlab run FILE|-   (run a script, print JSON Lines)");
                2
            }
        }
    }
}
