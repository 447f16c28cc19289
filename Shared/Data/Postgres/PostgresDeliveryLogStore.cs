using Dapper;
using Notifications.Shared.Hosting;
using Notifications.Shared.Outcomes;
using Npgsql;

namespace Notifications.Shared.Data.Postgres;

/// <summary>The delivery log on PostgreSQL; ids travel as one bigint[] parameter.</summary>
internal sealed class PostgresDeliveryLogStore : IDeliveryLogStore
{
    private readonly NpgsqlDataSource _dataSource;
    private readonly OutcomeEvents _outcomes;
    private readonly int _timeoutSeconds;
    private readonly string _findSentSql;
    private readonly string _recordSentSql;
    private readonly string _markSendingSql;
    private readonly string _releaseSql;
    private readonly string _markHandingBackSql;
    private readonly string _releaseHandedBackSql;
    private readonly string _recordMaybeSentSql;
    private readonly string _recordFailedSql;

    public PostgresDeliveryLogStore(NpgsqlDataSource dataSource, DatabaseOptions options)
    {
        _dataSource = dataSource;
        _outcomes = new OutcomeEvents(options);
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        _findSentSql = $"""
            SELECT notification_id FROM "{s}".delivery_log WHERE notification_id = ANY(@Ids) AND status = 'sent'
            """;
        _recordSentSql = $"""
            INSERT INTO "{s}".delivery_log (notification_id, status, created_at, attempts, claimed_at, published_at, trace_id)
            SELECT id, 'sent', created_at, attempts, claimed_at, published_at, trace_id
            FROM unnest(@Ids, @CreatedAts, @Attempts, @ClaimedAts, @PublishedAts, @TraceIds)
                AS sent(id, created_at, attempts, claimed_at, published_at, trace_id)
            ON CONFLICT (notification_id) DO UPDATE
                SET status = 'sent', updated_at = now(), created_at = COALESCE(EXCLUDED.created_at, delivery_log.created_at),
                    attempts = COALESCE(EXCLUDED.attempts, delivery_log.attempts),
                    claimed_at = COALESCE(EXCLUDED.claimed_at, delivery_log.claimed_at),
                    published_at = COALESCE(EXCLUDED.published_at, delivery_log.published_at),
                    trace_id = COALESCE(EXCLUDED.trace_id, delivery_log.trace_id)
            """;
        // A 'handing_back' mark is taken over: its row is locked while its hand-back's release deletes it, and the insert
        // goes ahead once that delete is committed.
        _markSendingSql = $"""
            INSERT INTO "{s}".delivery_log (notification_id, status)
            SELECT unnest(@Ids), 'sending'
            ON CONFLICT (notification_id) DO UPDATE SET status = 'sending', updated_at = now()
                WHERE delivery_log.status = 'handing_back'
            RETURNING notification_id
            """;
        _releaseSql = $"""
            DELETE FROM "{s}".delivery_log WHERE notification_id = ANY(@Ids) AND status = 'sending'
            """;
        _markHandingBackSql = $"""
            UPDATE "{s}".delivery_log SET status = 'handing_back', updated_at = now()
            WHERE notification_id = ANY(@Ids) AND status = 'sending'
            """;
        _releaseHandedBackSql = $"""
            DELETE FROM "{s}".delivery_log WHERE notification_id = ANY(@Ids) AND status = 'handing_back'
            """;
        _recordMaybeSentSql = $"""
            UPDATE "{s}".delivery_log AS d SET reason = m.reason, attempts = m.attempts, updated_at = now()
            FROM unnest(@Ids, @Attempts, @Reasons) AS m(id, attempts, reason)
            WHERE d.notification_id = m.id AND d.status = 'sending'
            """;
        _recordFailedSql = $"""
            INSERT INTO "{s}".delivery_attempt (notification_id, attempt, reason, trace_id)
            SELECT id, attempt, reason, trace_id FROM unnest(@Ids, @Attempts, @Reasons, @TraceIds) AS f(id, attempt, reason, trace_id)
            ON CONFLICT (notification_id, attempt) DO NOTHING
            """;
    }

    public async Task<IReadOnlySet<long>> FindSentAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken) =>
        (await QueryAsync(_findSentSql, ids, cancellationToken)).ToHashSet();

    public async Task RecordSentAsync(IReadOnlyCollection<SentNotification> sent, CancellationToken cancellationToken)
    {
        // One statement may not touch the same key twice: one entry per id.
        var distinct = sent.DistinctBy(n => n.Id).ToArray();
        var parameters = new
        {
            Ids = distinct.Select(n => n.Id).ToArray(),
            CreatedAts = distinct.Select(n => n.CreatedAt?.UtcDateTime).ToArray(),
            Attempts = distinct.Select(n => n.Attempts).ToArray(),
            ClaimedAts = distinct.Select(n => n.ClaimedAt?.UtcDateTime).ToArray(),
            PublishedAts = distinct.Select(n => n.PublishedAt?.UtcDateTime).ToArray(),
            TraceIds = distinct.Select(n => n.TraceId).ToArray(),
        };
        // The batch's delivered events ride in the same command, one round trip and one implicit transaction with the rows
        // (OutcomeEvents.PostgresPart): without subscribers, the one statement as before.
        string sql = _recordSentSql;
        object command = parameters;
        if (_outcomes.PostgresPart(sent.Where(n => n.Outcome is not null).Select(n => n.Outcome!).ToArray()) is { } events)
        {
            var both = new DynamicParameters(parameters);
            both.AddDynamicParams(events.Parameters);
            (sql, command) = ($"{_recordSentSql};\n{events.Sql}", both);
        }

        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        await connection.ExecuteAsync(new CommandDefinition(sql, command, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }

    public async Task<IReadOnlySet<long>> TryMarkSendingAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken) =>
        (await QueryAsync(_markSendingSql, ids, cancellationToken)).ToHashSet();

    public Task ReleaseAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken) =>
        ExecuteAsync(_releaseSql, ids, cancellationToken);

    public Task MarkHandingBackAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken) =>
        ExecuteAsync(_markHandingBackSql, ids, cancellationToken);

    public Task ReleaseHandedBackAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken) =>
        ExecuteAsync(_releaseHandedBackSql, ids, cancellationToken);

    public async Task RecordMaybeSentAsync(IReadOnlyCollection<MaybeSentNotification> maybeSent, CancellationToken cancellationToken)
    {
        // One statement may not update the same row twice: one entry per id.
        var distinct = maybeSent.DistinctBy(n => n.Id).ToArray();
        var parameters = new
        {
            Ids = distinct.Select(n => n.Id).ToArray(),
            Attempts = distinct.Select(n => n.Attempts).ToArray(),
            Reasons = distinct.Select(n => n.StoredReason).ToArray(),
        };
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        await connection.ExecuteAsync(new CommandDefinition(_recordMaybeSentSql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }

    public async Task RecordFailedAttemptsAsync(IReadOnlyCollection<FailedAttempt> failed, CancellationToken cancellationToken)
    {
        var parameters = new
        {
            Ids = failed.Select(f => f.Id).ToArray(),
            Attempts = failed.Select(f => f.Attempt).ToArray(),
            Reasons = failed.Select(f => f.StoredReason).ToArray(),
            TraceIds = failed.Select(f => f.TraceId).ToArray(),
        };
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        await connection.ExecuteAsync(new CommandDefinition(_recordFailedSql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }

    private async Task<IEnumerable<long>> QueryAsync(string sql, IReadOnlyCollection<long> ids, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.QueryAsync<long>(Command(sql, ids, cancellationToken));
    }

    private async Task ExecuteAsync(string sql, IReadOnlyCollection<long> ids, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        await connection.ExecuteAsync(Command(sql, ids, cancellationToken));
    }

    // One statement may not touch the same key twice (ON CONFLICT DO UPDATE forbids it): distinct ids only.
    private CommandDefinition Command(string sql, IReadOnlyCollection<long> ids, CancellationToken cancellationToken) =>
        new(sql, new { Ids = ids.Distinct().ToArray() }, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);
}
