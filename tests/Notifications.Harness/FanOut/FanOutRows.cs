using System.Globalization;
using System.Text.Json;
using Npgsql;
using Notifications.Shared.Contract;

namespace Notifications.Harness.FanOut;

/// <summary>
/// What a fan-out run writes and reads: the audience rows an app would insert (plain SQL, as docs/fan-out.md shows them:
/// <c>channel = 'audience'</c>, <c>recipient</c> <c>topic:…</c> or <c>subscriber:…</c>, <c>channels</c>), each carrying its
/// number as the push data's <c>notification_id</c>, which every delivery repeats; and the jobs' state.
/// </summary>
internal sealed class FanOutRows(NpgsqlDataSource dataSource, string channel)
{
    private const string Insert = """
        INSERT INTO notifications.outbox (channel, recipient, channels, subject, body, data)
        SELECT 'audience', r, $2, 'Polls closed', 'Results from 22:00.', d FROM unnest($1::varchar[], $3::text[]) AS t (r, d)
        RETURNING (extract(epoch FROM created_at) * 1000000)::bigint
        """;

    /// <summary>The notification id a row's push data carries (the receiver counts deliveries by it and the device).</summary>
    public static string Data(string notificationId) =>
        JsonSerializer.Serialize(new Dictionary<string, string> { ["notification_id"] = notificationId });

    /// <summary>
    /// The topic row, in its own transaction; its commit time (<c>created_at</c>, Unix microseconds: the statement's start,
    /// under a millisecond before the commit).
    /// </summary>
    public Task<long> InsertTopicAsync(string notificationId) =>
        InsertAsync([$"topic:{FanOutBenchOptions.TopicName}"], [notificationId]);

    /// <summary>Rows to subscribers, one statement and transaction; their commit time.</summary>
    public Task<long> InsertSubscribersAsync(IReadOnlyList<string> subscriberIds, IReadOnlyList<string> notificationIds) =>
        InsertAsync(subscriberIds.Select(s => $"subscriber:{s}").ToArray(), notificationIds);

    /// <summary>All jobs: deliveries published, the first job's creation (the claim) and the last end, Unix microseconds; jobs still running.</summary>
    public async Task<(long Published, long? FirstClaimed, long? LastFinished, long Running)> JobsAsync()
    {
        await using var command = dataSource.CreateCommand("""
            SELECT coalesce(sum(published), 0)::bigint,
                   (extract(epoch FROM min(created_at)) * 1000000)::bigint,
                   (extract(epoch FROM max(finished_at)) * 1000000)::bigint,
                   count(*) FILTER (WHERE state = 'running')
            FROM notifications.fanout_job
            """);
        await using var reader = await command.ExecuteReaderAsync();
        await reader.ReadAsync();
        return (reader.GetInt64(0), reader.IsDBNull(1) ? null : reader.GetInt64(1), reader.IsDBNull(2) ? null : reader.GetInt64(2), reader.GetInt64(3));
    }

    private async Task<long> InsertAsync(string[] recipients, IReadOnlyList<string> notificationIds)
    {
        await using var command = dataSource.CreateCommand(Insert);
        command.Parameters.Add(new NpgsqlParameter { Value = recipients });
        command.Parameters.Add(new NpgsqlParameter { Value = channel });
        // Push data is the push channel's: an email-only row has none, as the client builds it.
        command.Parameters.Add(new NpgsqlParameter
        {
            Value = notificationIds.Select(id => channel == NotificationChannels.Push ? Data(id) : null).ToArray(),
        });
        return (long)(await command.ExecuteScalarAsync())!;
    }

    /// <summary>Row <paramref name="n"/>'s notification id as text.</summary>
    public static string Id(long n) => n.ToString(CultureInfo.InvariantCulture);
}
