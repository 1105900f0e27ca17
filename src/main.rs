fn main() -> std::process::ExitCode {
    cli::main()
}
