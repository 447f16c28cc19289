using System.Data;
using Dapper;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Hosting;
using Notifications.Shared.Observability;
using Npgsql;

namespace Notifications.Producer;

/// <summary>
/// LISTENs on a dedicated PostgreSQL connection for db/postgres/019's NOTIFY of a committed urgent row and wakes
/// the urgent lane (<see cref="UrgentWake"/>). The lane's poll stays the safety net: whenever this starts or stops
/// listening the lane looks once, and while it does not listen the lane polls at
/// <see cref="ProducerOptions.UrgentMaxPollInterval"/>. A lost connection is retried with a doubling backoff.
/// </summary>
internal sealed class UrgentListenerService(
    NpgsqlDataSource? dataSource,
    UrgentWake wake,
    IOptions<ProducerOptions> options,
    IOptions<DatabaseOptions> databaseOptions,
    ILogger<UrgentListenerService> logger) : BackgroundService
{
    /// <summary>The channel of the trigger's NOTIFY; the payload is the outbox's schema.</summary>
    public const string Channel = "notifications_outbox_urgent";

    // How often an idle listen connection is checked (a round trip that also notices a disabled trigger), and how
    // often a missing trigger is looked for again.
    private static readonly TimeSpan KeepAlive = TimeSpan.FromSeconds(30);
    private static readonly TimeSpan TriggerRecheck = TimeSpan.FromMinutes(1);

    private readonly ProducerOptions _options = options.Value;
    private readonly string _schema = databaseOptions.Value.Schema;
    private TimeSpan _backoff = TimeSpan.FromSeconds(1);
    private bool _triggerMissingLogged;

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        if (dataSource is null || !_options.ListenForUrgent)
        {
            ProducerLog.UrgentListenOff(logger, dataSource is null ? "SQL Server has no LISTEN/NOTIFY" : "Producer:ListenForUrgent is off", _options.UrgentMaxPollInterval);
            return;
        }

        await Task.Yield();
        try
        {
            while (!stoppingToken.IsCancellationRequested)
            {
                try
                {
                    await ListenAsync(dataSource, stoppingToken);
                    await Task.Delay(TriggerRecheck, stoppingToken);
                }
                catch (Exception ex) when (!stoppingToken.IsCancellationRequested)
                {
                    LogFailure(ex);
                    await Task.Delay(_backoff * (0.8 + (Random.Shared.NextDouble() * 0.4)), stoppingToken);
                    _backoff = _backoff * 2 < _options.MaxErrorBackoff ? _backoff * 2 : _options.MaxErrorBackoff;
                }
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // Shutdown.
        }
    }

    // Listens until the connection fails (throws) or the trigger is found missing (returns).
    private async Task ListenAsync(NpgsqlDataSource source, CancellationToken cancellationToken)
    {
        await using var connection = await source.OpenConnectionAsync(cancellationToken);
        if (!await TriggerEnabledAsync(connection, cancellationToken))
        {
            LogTriggerMissing();
            return;
        }

        connection.Notification += (_, e) =>
        {
            if (e.Payload == _schema)
            {
                wake.Signal();
            }
        };
        await connection.ExecuteAsync(new CommandDefinition($"LISTEN {Channel}", cancellationToken: cancellationToken));
        _backoff = TimeSpan.FromSeconds(1);
        _triggerMissingLogged = false;
        wake.SetListening(true);
        ProducerLog.UrgentListening(logger, _schema, Channel, _options.UrgentMaxPollIntervalListening);
        try
        {
            bool enabled = true;
            while (enabled)
            {
                // No notification for a while: a round trip proves the connection alive and the trigger still on.
                if (!await connection.WaitAsync(KeepAlive, cancellationToken))
                {
                    enabled = await TriggerEnabledAsync(connection, cancellationToken);
                }
            }

            LogTriggerMissing();
        }
        finally
        {
            wake.SetListening(false);
            await UnlistenAsync(connection);
        }
    }

    // The connection goes back to Npgsql's pool: it must not keep receiving notifications there.
    private async Task UnlistenAsync(NpgsqlConnection connection)
    {
        if (connection.FullState != ConnectionState.Open)
        {
            return;
        }

        try
        {
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(5));
            await connection.ExecuteAsync(new CommandDefinition("UNLISTEN *", cancellationToken: timeout.Token));
        }
        catch (Exception ex) when (ex is NpgsqlException or OperationCanceledException)
        {
            ProducerLog.UrgentUnlistenFailed(logger, ex);
        }
    }

    private Task<bool> TriggerEnabledAsync(NpgsqlConnection connection, CancellationToken cancellationToken) =>
        connection.ExecuteScalarAsync<bool>(new CommandDefinition(
            """
            SELECT EXISTS (SELECT 1 FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
                           WHERE n.nspname = @Schema AND c.relname = 'outbox' AND t.tgname = 'outbox_notify_urgent' AND t.tgenabled <> 'D')
            """,
            new { Schema = _schema }, cancellationToken: cancellationToken));

    private void LogTriggerMissing()
    {
        if (!_triggerMissingLogged)
        {
            _triggerMissingLogged = true;
            ProducerLog.UrgentTriggerMissing(logger, _schema, _options.UrgentMaxPollInterval, TriggerRecheck);
        }
    }

    private void LogFailure(Exception ex)
    {
        var delay = _backoff;
        if (ConnectionFailure.IsExpected(ex) || ex is NpgsqlException)
        {
            ProducerLog.UrgentListenLost(logger, ConnectionFailure.Describe(ex), _options.UrgentMaxPollInterval, delay);
        }
        else
        {
            ProducerLog.UrgentListenFailed(logger, _options.UrgentMaxPollInterval, delay, ex);
        }
    }
}
