using Notifications.Admin;
using RabbitMQ.Client;

namespace Notifications.OperatorConsole.Overview;

/// <summary>
/// The one broker connection the overview reads queue depths through (AMQP passive declares), opened on first use as the admin
/// tool opens its own and opened again after it closed. The overview asks once a second per open page: one connection, not one
/// a refresh.
/// </summary>
internal sealed class StatusConnection(AdminContext admin, ILogger<StatusConnection> logger) : IAsyncDisposable
{
    private readonly SemaphoreSlim _gate = new(1, 1);
    private IConnection? _connection;

    /// <summary>The open connection; an unreachable broker is an <see cref="AdminException"/> as for the command line.</summary>
    public async Task<IConnection> GetAsync(CancellationToken cancellationToken)
    {
        if (_connection is { IsOpen: true } open)
        {
            return open;
        }

        await _gate.WaitAsync(cancellationToken);
        try
        {
            if (_connection is { IsOpen: true } reopened)
            {
                return reopened;
            }

            if (_connection is { } closed)
            {
                ConsoleLog.BrokerFailed(logger, closed.CloseReason?.ReplyText ?? "closed");
                await closed.DisposeAsync();
                _connection = null;
            }

            _connection = await admin.ConnectAsync(cancellationToken);
            return _connection;
        }
        finally
        {
            _gate.Release();
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_connection is { } connection)
        {
            await connection.DisposeAsync();
        }

        _gate.Dispose();
    }
}
