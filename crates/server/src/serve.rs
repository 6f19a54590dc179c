//! Running the application: binding a socket, serving in the background, and stopping
//! gracefully.

use crate::config::Config;
use crate::router::app;
use crate::state::AppState;
use std::net::SocketAddr;

/// A server that is running. Dropping it leaves the server running until the runtime
/// ends; call [`RunningServer::shutdown`] to stop it gracefully.
pub struct RunningServer {
    /// The address actually bound (port 0 resolved).
    pub addr: SocketAddr,
    state: AppState,
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl std::fmt::Debug for RunningServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunningServer")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

impl RunningServer {
    /// `http://ADDR`, without a trailing slash.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The shared state (database, clock), for inspecting or adjusting a running server.
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Stops accepting connections, lets in-flight requests finish, and waits.
    pub async fn shutdown(self) -> anyhow::Result<()> {
        let _ = self.stop.send(());
        self.task.await??;
        Ok(())
    }

    /// Serves until Ctrl-C or SIGTERM, then shuts down gracefully.
    pub async fn run_until_signal(self) -> anyhow::Result<()> {
        shutdown_signal().await;
        tracing::info!("shutting down");
        self.shutdown().await
    }

    /// Waits until the server stops on its own (it only does on an I/O error).
    pub async fn wait(self) -> anyhow::Result<()> {
        let RunningServer { stop, task, .. } = self;
        let result = task.await?;
        drop(stop);
        Ok(result?)
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}

/// Opens the database, binds `config.addr` (port 0 allowed) and starts serving in the
/// background.
pub async fn start(config: Config) -> anyhow::Result<RunningServer> {
    let addr = config.addr;
    let state = tokio::task::spawn_blocking(move || AppState::new(config)).await??;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("binding {addr}: {e}"))?;
    let addr = listener.local_addr()?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let router = app(state.clone());
    let task = tokio::spawn(async move {
        axum::serve(listener, router)
            .with_graceful_shutdown(async {
                let _ = stopped.await;
            })
            .await
    });
    Ok(RunningServer {
        addr,
        state,
        stop,
        task,
    })
}
