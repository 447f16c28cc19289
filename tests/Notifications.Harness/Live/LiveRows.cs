using System.Diagnostics;
using Npgsql;

namespace Notifications.Harness.Live;

/// <summary>
/// What a live run writes and reads: live rows as an app inserts them (<c>channel = 'live'</c>, the subscriber as recipient;
/// what <c>NewNotification.Live</c> writes), each batch in one transaction whose commit the harness times; a topic row to the
/// live channel (what <c>NewNotification.ToTopic(…, AudienceChannels.Live)</c> writes); and the pending rows the clients' acks delete.
/// </summary>
internal sealed class LiveRows(NpgsqlDataSource dataSource)
{
    private const string Insert = """
        INSERT INTO notifications.outbox (channel, recipient, subject, body, priority)
        SELECT 'live', r, 'Your ride', 'arrives in 2 min', $2 FROM unnest($1::varchar[]) AS t (r)
        RETURNING id
        """;

    private const string InsertTopic = """
        INSERT INTO notifications.outbox (channel, recipient, channels, subject, body)
        VALUES ('audience', 'topic:' || $1, 'live', $2, 'to every connected app')
        """;

    /// <summary>
    /// Empties the pipeline's tables: the outbox, the delivery log, the rejected rows, the pending live rows, the fan-out's jobs
    /// and deliveries (a topic broadcast's), and any run's outcome events (<see cref="BenchDatabase.OutcomeEventsLeftovers"/>).
    /// </summary>
    public async Task ResetAsync()
    {
        await using var command = dataSource.CreateCommand(
            "TRUNCATE notifications.outbox, notifications.delivery_log, notifications.rejected, notifications.live_pending, "
            + "notifications.audience_delivery, notifications.fanout_job;\n" + BenchDatabase.OutcomeEventsLeftovers);
        await command.ExecuteNonQueryAsync();
    }

    /// <summary>
    /// One live row to each of <paramref name="subscribers"/> at <paramref name="priority"/> (<c>urgent</c>, <c>normal</c> or
    /// <c>bulk</c>), in one transaction: the rows' ids and the moment the commit returned (<see cref="Stopwatch.GetTimestamp"/>:
    /// the harness's clients time their arrivals on the same clock).
    /// </summary>
    public async Task<(long[] Ids, long CommittedAt)> InsertAsync(string[] subscribers, string priority = "normal")
    {
        await using var connection = await dataSource.OpenConnectionAsync();
        await using var transaction = await connection.BeginTransactionAsync();
        var ids = new List<long>(subscribers.Length);
        await using (var command = new NpgsqlCommand(Insert, connection, transaction))
        {
            command.Parameters.Add(new NpgsqlParameter { Value = subscribers });
            command.Parameters.Add(new NpgsqlParameter { Value = priority });
            await using var reader = await command.ExecuteReaderAsync();
            while (await reader.ReadAsync())
            {
                ids.Add(reader.GetInt64(0));
            }
        }

        await transaction.CommitAsync();
        return (ids.ToArray(), Stopwatch.GetTimestamp());
    }

    /// <summary>
    /// One audience row to <paramref name="topic"/> on the live channel under <paramref name="subject"/>, in its own transaction:
    /// the moment the commit returned (<see cref="Stopwatch.GetTimestamp"/>).
    /// </summary>
    public async Task<long> InsertTopicAsync(string topic, string subject)
    {
        await using var connection = await dataSource.OpenConnectionAsync();
        await using var transaction = await connection.BeginTransactionAsync();
        await using (var command = new NpgsqlCommand(InsertTopic, connection, transaction))
        {
            command.Parameters.Add(new NpgsqlParameter { Value = topic });
            command.Parameters.Add(new NpgsqlParameter { Value = subject });
            await command.ExecuteNonQueryAsync();
        }

        await transaction.CommitAsync();
        return Stopwatch.GetTimestamp();
    }

    /// <summary>Those of <paramref name="ids"/> still pending (not acked yet).</summary>
    public async Task<HashSet<long>> PendingAsync(long[] ids)
    {
        await using var command = dataSource.CreateCommand("SELECT notification_id FROM notifications.live_pending WHERE notification_id = ANY($1)");
        command.Parameters.Add(new NpgsqlParameter { Value = ids });
        await using var reader = await command.ExecuteReaderAsync();
        var pending = new HashSet<long>();
        while (await reader.ReadAsync())
        {
            pending.Add(reader.GetInt64(0));
        }

        return pending;
    }

    /// <summary>Pending rows left (none once every client acked what it received).</summary>
    public async Task<long> PendingCountAsync()
    {
        await using var command = dataSource.CreateCommand("SELECT count(*) FROM notifications.live_pending");
        return (long)(await command.ExecuteScalarAsync())!;
    }
}
