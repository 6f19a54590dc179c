//! `gpudeck-server`: the command line. Everything else lives in the library.

use clap::{Parser, Subcommand};
use gpudeck_server::limits::RefusalShape;
use gpudeck_server::{config, db, demo, keys, Config, DbLocation};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Reference server for the marketplace REST interface (axum + SQLite).
#[derive(Debug, Parser)]
#[command(name = "gpudeck-server", version)]
struct Cli {
    /// Address to listen on; port 0 picks a free port.
    #[arg(long, default_value = config::DEFAULT_ADDR, env = "GPUDECK_ADDR")]
    addr: SocketAddr,
    /// SQLite database file (created with its schema when missing).
    #[arg(long, default_value = "gpudeck.sqlite", conflicts_with = "memory")]
    db: PathBuf,
    /// Use a private in-memory database instead of a file.
    #[arg(long)]
    memory: bool,
    /// Seed the demo data into an empty database and print the demo keys.
    #[arg(long)]
    demo: bool,
    /// Serve the built console from this directory (SPA fallback to index.html).
    #[arg(long)]
    static_dir: Option<PathBuf>,
    /// Forward every /api/v0/ request to this base URL instead of answering locally.
    #[arg(long)]
    upstream: Option<String>,
    /// An origin allowed to call the API from a browser; repeatable.
    /// Default: http://127.0.0.1:8080 and http://localhost:8080 (trunk serve).
    #[arg(long = "cors-origin")]
    cors_origins: Vec<String>,
    /// Largest request body in bytes.
    #[arg(long, default_value_t = config::DEFAULT_BODY_LIMIT)]
    body_limit: usize,
    /// Seconds a request may take before it is answered with 503.
    #[arg(long, default_value_t = config::DEFAULT_REQUEST_TIMEOUT.as_secs())]
    request_timeout: u64,
    /// Requests per second allowed per API key (token bucket, bursts of the same size);
    /// beyond it, 429 with Retry-After. Off unless given.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    rate_limit: Option<u32>,
    /// Limit each operation per API key to the public service's minimum interval between
    /// calls (N4 schedule many and N7 cancel many windows every 2 s, N3 schedule one and N5
    /// cancel every window of a machine every 2.5 s, ...); sooner, 429 with
    /// Retry-After. Off unless given.
    #[arg(long)]
    public_rate_limits: bool,
    /// How the rate limits' 429s answer: `json` ({"error": "rate_limited", "msg"} with
    /// Retry-After) or `public` (the public service's plain text `API requests too
    /// frequent: endpoint threshold=X`, no Retry-After).
    #[arg(long, value_enum, default_value_t = Shape::Json)]
    rate_limit_shape: Shape,
    /// An origin the served console may call besides its own (Content-Security-Policy
    /// connect-src); repeatable.
    #[arg(long = "connect-src")]
    connect_src: Vec<String>,
    /// Let webhooks target 127.0.0.1 and localhost (over http too), and serve the demo
    /// triggers under /_demo/, as --demo does, so that tests can receive deliveries;
    /// changes nothing else.
    #[arg(long)]
    test_mode: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

/// `--rate-limit-shape`'s values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Shape {
    Json,
    Public,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Manage API keys.
    Keys {
        #[command(subcommand)]
        command: KeysCommand,
    },
}

#[derive(Debug, Subcommand)]
enum KeysCommand {
    /// Create a user and print its new API key (shown once; only its hash is stored).
    Create {
        #[arg(long)]
        db: PathBuf,
        #[arg(long)]
        email: String,
        #[arg(long)]
        username: String,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let cli = Cli::parse();
    if let Some(Command::Keys {
        command:
            KeysCommand::Create {
                db,
                email,
                username,
            },
    }) = &cli.command
    {
        return create_key(db, email, username);
    }
    let config = Config {
        addr: cli.addr,
        db: if cli.memory {
            DbLocation::Memory
        } else {
            DbLocation::File(cli.db)
        },
        demo: cli.demo,
        static_dir: cli.static_dir,
        upstream: cli.upstream,
        cors_origins: if cli.cors_origins.is_empty() {
            config::DEFAULT_CORS_ORIGINS
                .iter()
                .map(|o| o.to_string())
                .collect()
        } else {
            cli.cors_origins
        },
        body_limit: cli.body_limit,
        request_timeout: Duration::from_secs(cli.request_timeout),
        clock: Default::default(),
        rate_limit: cli.rate_limit,
        public_rate_limits: cli.public_rate_limits,
        rate_limit_shape: match cli.rate_limit_shape {
            Shape::Json => RefusalShape::Json,
            Shape::Public => RefusalShape::Public,
        },
        connect_src: cli.connect_src,
        test_mode: cli.test_mode,
    };
    let demo_on = config.demo;
    if let Some(upstream) = &config.upstream {
        // Said now, rather than as a 502 on the first page a person opens.
        gpudeck_server::upstream::Upstream::new(upstream)?
            .check_answers()
            .await?;
    }
    let server = gpudeck_server::start(config).await?;
    println!("gpudeck-server listening on {}", server.url());
    if let Some(upstream) = &server.state().upstream {
        println!("forwarding /api/v0/ to {}", upstream.base());
    }
    if demo_on {
        println!("demo keys:");
        for (who, key) in demo::KEYS {
            println!("  {who}: {key}");
        }
    }
    server.run_until_signal().await
}

fn create_key(path: &std::path::Path, email: &str, username: &str) -> anyhow::Result<()> {
    let db = db::Db::open(&DbLocation::File(path.to_owned()))?;
    let secret = db.secret().map_err(|e| anyhow::anyhow!("{e}"))?;
    let key = keys::generate_key();
    let now = gpudeck_server::Clock::System.now();
    let id = db
        .with_conn(|conn| {
            let tx = db::write_tx(conn)?;
            let id = db::users::create_user(
                &tx,
                &secret,
                &db::users::NewUser {
                    email,
                    username,
                    ..Default::default()
                },
                now,
            )?;
            db::users::insert_key(&tx, &key, id, None, now)?;
            tx.commit()?;
            Ok(id)
        })
        .map_err(|e| anyhow::anyhow!("creating the user: {e}"))?;
    println!("created user {id} ({username} <{email}>)");
    println!("API key (shown once; only its hash is stored): {key}");
    Ok(())
}
