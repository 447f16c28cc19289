using Dapper;
using Notifications.Shared.Contract;
using Notifications.Shared.Data.Audiences;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Shared.Data.Postgres;

/// <summary>The subscribers' preferences on PostgreSQL (the consumer's read and its 'opted_out' record; the opt-out by a link).</summary>
internal sealed class PostgresPreferenceStore : IPreferenceStore
{
    private readonly NpgsqlDataSource _dataSource;
    private readonly int _timeoutSeconds;
    private readonly string _findSql;
    private readonly string _recordSql;
    private readonly string _findLiveSql;
    private readonly string _optOutSql;

    public PostgresPreferenceStore(NpgsqlDataSource dataSource, DatabaseOptions options)
    {
        _dataSource = dataSource;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        // An address two subscribers share (a family's mailbox): one owner's opt-out is enough, as an unsubscribe from the
        // address would be. Ordered so the reason names the same subscriber every time.
        _findSql = $"""
            SELECT s.external_id AS SubscriberId, p.enabled IS NOT NULL AS ByPreference
            FROM "{s}".contact_point AS cp
            JOIN "{s}".subscriber AS s ON s.id = cp.subscriber_id
            JOIN "{s}".category AS c ON c.name = @Category AND NOT c.critical
            LEFT JOIN "{s}".preference AS p ON p.subscriber_id = cp.subscriber_id AND p.category = c.name AND p.channel = cp.channel
            LEFT JOIN "{s}".category_default AS d ON d.category = c.name AND d.channel = cp.channel
            WHERE cp.channel = @Channel AND cp.address = @Address AND NOT COALESCE(p.enabled, d.enabled, true)
            ORDER BY s.external_id
            LIMIT 1
            """;
        // The live channel has no contact point: its address is the subscriber itself.
        _findLiveSql = $"""
            SELECT s.external_id AS SubscriberId, p.enabled IS NOT NULL AS ByPreference
            FROM "{s}".subscriber AS s
            JOIN "{s}".category AS c ON c.name = @Category AND NOT c.critical
            LEFT JOIN "{s}".preference AS p ON p.subscriber_id = s.id AND p.category = c.name AND p.channel = 'live'
            LEFT JOIN "{s}".category_default AS d ON d.category = c.name AND d.channel = 'live'
            WHERE s.external_id = @Address AND NOT COALESCE(p.enabled, d.enabled, true)
            """;
        _recordSql = $"""
            INSERT INTO "{s}".delivery_log (notification_id, status, created_at, attempts, reason)
            VALUES (@Id, 'opted_out', @CreatedAt, @Attempts, @Reason)
            ON CONFLICT (notification_id) DO NOTHING
            """;
        _optOutSql = $"""SELECT "{s}".opt_out_by_link(@Channel, @Address, @Category)""";
    }

    public async Task<OptOut?> FindOptOutAsync(string channel, string address, string category, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.QuerySingleOrDefaultAsync<OptOut>(new CommandDefinition(
            channel == AudienceRules.Live ? _findLiveSql : _findSql, new { Channel = channel, Address = address, Category = category }, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }

    public async Task RecordOptedOutAsync(SentNotification notification, string reason, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        await connection.ExecuteAsync(new CommandDefinition(_recordSql, new
        {
            notification.Id,
            CreatedAt = notification.CreatedAt?.UtcDateTime,
            notification.Attempts,
            Reason = reason,
        }, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }

    public async Task<int> OptOutByLinkAsync(string channel, string address, string category, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.ExecuteScalarAsync<int>(new CommandDefinition(
            _optOutSql, new { Channel = channel, Address = address, Category = category }, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
    }
}
