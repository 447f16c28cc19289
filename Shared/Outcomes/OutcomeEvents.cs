using System.Data.Common;
using System.Text.Json;
using Dapper;
using Notifications.Shared.Contract;
using Notifications.Shared.Hosting;

namespace Notifications.Shared.Outcomes;

/// <summary>
/// The one writer of outcome events, for every worker (the consumer's delivery log and dead letters, a bounce receiver):
/// inside the caller's transaction, each event becomes one webhook outbox row per enabled endpoint subscribed to its type,
/// and an <c>outcome_event</c> row that makes it once: an event already made for that notification, endpoint and type
/// (a redelivered notification's) inserts nothing. An event nobody subscribes to inserts nothing. One statement per call.
/// </summary>
public sealed class OutcomeEvents
{
    private readonly DatabaseProvider _provider;
    private readonly int _timeoutSeconds;
    private readonly string _postgresWrite;

    /// <summary>The writer for the database of <paramref name="options"/> (its dialect, schema and command timeout).</summary>
    public OutcomeEvents(DatabaseOptions options)
    {
        _provider = options.Provider;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        // One pass: the outcome_event rows are inserted straight from the events joined to their subscribers, each with an id
        // taken from the outbox's sequence (looked up once a statement), and the rows it made (a redelivered notification's
        // event makes none) are joined back to their data for the outbox rows. This is a quarter cheaper than building the
        // targets first and reading them twice (docs/outcome-events.md, "Cost on the hot path").
        _postgresWrite = $"""
            WITH made AS (
                INSERT INTO "{s}".outcome_event (notification_id, endpoint, event_type, event_id)
                SELECT e.notification_id, sub.endpoint, e.event_type,
                       nextval((SELECT pg_get_serial_sequence('"{s}".outbox', 'id')::regclass))
                FROM unnest(@NotificationIds, @Types) AS e(notification_id, event_type)
                JOIN "{s}".webhook_event_subscription AS sub ON sub.event_type = e.event_type
                JOIN "{s}".webhook_endpoint AS w ON w.name = sub.endpoint AND w.disabled_at IS NULL
                ON CONFLICT (notification_id, endpoint, event_type) DO NOTHING
                RETURNING notification_id, endpoint, event_type, event_id
            )
            INSERT INTO "{s}".outbox (id, channel, recipient, subject, data)
            SELECT m.event_id, 'webhook', m.endpoint, m.event_type, e.data
            FROM made AS m
            JOIN unnest(@NotificationIds, @Types, @Data) AS e(notification_id, event_type, data)
                ON e.notification_id = m.notification_id AND e.event_type = m.event_type
            """;
        // The outbox's ids come from its IDENTITY: the rows are inserted by a MERGE, whose OUTPUT may name the source's columns.
        WriteSql = $"""
            SET NOCOUNT ON;
            DECLARE @target TABLE (notification_id bigint NOT NULL, event_type varchar(40) NOT NULL, endpoint varchar(64) NOT NULL, data nvarchar(max) NOT NULL);
            DECLARE @made TABLE (event_id bigint NOT NULL, notification_id bigint NOT NULL, event_type varchar(40) NOT NULL, endpoint varchar(64) NOT NULL);
            INSERT INTO @target (notification_id, event_type, endpoint, data)
            SELECT e.notification_id, e.event_type, sub.endpoint, e.data
            FROM OPENJSON(@Events) WITH (notification_id bigint '$.id', event_type varchar(40) '$.type', data nvarchar(max) '$.data') AS e
            JOIN [{s}].[webhook_event_subscription] AS sub ON sub.event_type = e.event_type
            JOIN [{s}].[webhook_endpoint] AS w ON w.name = sub.endpoint AND w.disabled_at IS NULL
            WHERE NOT EXISTS (SELECT 1 FROM [{s}].[outcome_event] AS o WITH (UPDLOCK, HOLDLOCK)
                              WHERE o.notification_id = e.notification_id AND o.endpoint = sub.endpoint AND o.event_type = e.event_type);
            MERGE INTO [{s}].[outbox] AS o USING @target AS t ON 1 = 0
            WHEN NOT MATCHED THEN INSERT (channel, recipient, subject, data) VALUES ('webhook', t.endpoint, t.event_type, t.data)
            OUTPUT INSERTED.id, t.notification_id, t.event_type, t.endpoint INTO @made (event_id, notification_id, event_type, endpoint);
            INSERT INTO [{s}].[outcome_event] (notification_id, endpoint, event_type, event_id)
            SELECT notification_id, endpoint, event_type, event_id FROM @made;
            """;
    }


    /// <summary>The statement on SQL Server (a batch).</summary>
    internal string WriteSql { get; }

    /// <summary>
    /// Writes <paramref name="events"/> on <paramref name="connection"/> within <paramref name="transaction"/> (the caller's,
    /// so the events commit or roll back with what they report). The caller leaves out event notifications
    /// (<see cref="IsEventNotification"/>): an event never has an event.
    /// </summary>
    public async Task WriteAsync(DbConnection connection, DbTransaction? transaction, IReadOnlyCollection<OutcomeEvent> events, CancellationToken cancellationToken)
    {
        var distinct = Distinct(events);
        if (distinct.Length == 0)
        {
            return;
        }

        object parameters = _provider == DatabaseProvider.Postgres
            ? PostgresParameters(distinct)
            : new { Events = JsonSerializer.Serialize(distinct.Select(e => new { id = e.NotificationId, type = e.Type, data = OutcomeEventBody.Write(e) })) };
        string sql = _provider == DatabaseProvider.Postgres ? _postgresWrite : WriteSql;
        await connection.ExecuteAsync(new CommandDefinition(sql, parameters, transaction, _timeoutSeconds, cancellationToken: cancellationToken));
    }

    /// <summary>
    /// PostgreSQL: the statement for <paramref name="events"/> (none for none) and its parameters, to be sent after a caller's own
    /// statement in one command. Npgsql sends a command's statements in one round trip with one Sync, so they run in one implicit
    /// transaction: both commit, or neither (the delivery log's batch, without a transaction of its own).
    /// </summary>
    public (string Sql, IReadOnlyDictionary<string, object> Parameters)? PostgresPart(IReadOnlyCollection<OutcomeEvent> events)
    {
        var distinct = Distinct(events);
        return distinct.Length == 0 ? null : (_postgresWrite, PostgresParameters(distinct));
    }

    // One statement may not insert the same key twice: one event per notification and type.
    private static OutcomeEvent[] Distinct(IReadOnlyCollection<OutcomeEvent> events) => events.DistinctBy(e => (e.NotificationId, e.Type)).ToArray();

    private static Dictionary<string, object> PostgresParameters(OutcomeEvent[] distinct) => new(StringComparer.Ordinal)
    {
        ["NotificationIds"] = distinct.Select(e => e.NotificationId).ToArray(),
        ["Types"] = distinct.Select(e => e.Type).ToArray(),
        ["Data"] = distinct.Select(OutcomeEventBody.Write).ToArray(),
    };

    /// <summary>Whether a notification of <paramref name="channel"/> and <paramref name="type"/> (its subject) is itself an outcome event.</summary>
    public static bool IsEventNotification(string? channel, string? type) => channel == NotificationChannels.Webhook && OutcomeEventTypes.IsKnown(type);
}
