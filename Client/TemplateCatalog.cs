using System.Collections.Concurrent;
using System.Data;
using System.Data.Common;
using Microsoft.Extensions.Logging;
using Notifications.Shared.Contract;

namespace Notifications.Client;

/// <summary>
/// The template check at enqueue: a templated notification naming a template with no version in any locale, or whose data
/// lacks a variable its template uses (the <c>template.variables</c> column, written by <c>admin templates put</c>), is
/// refused with an <see cref="ArgumentException"/> before the insert, where the consumer would dead-letter it after. The
/// template's rows are read in the caller's transaction and kept 10 seconds per database, schema and name; an unknown
/// name is not kept (it is read again: a template put a moment later is taken at once, and bad names fill no cache). When they cannot be
/// read (the app's role lacks the grant on <c>template(name, locale, version, variables)</c>, or the schema is older
/// than migration 024), the check is skipped, with one warning per database and schema (EventId 7000).
/// </summary>
internal static class TemplateCatalog
{
    /// <summary>How long a template's rows are kept before they are read again.</summary>
    public static readonly TimeSpan CacheFor = TimeSpan.FromSeconds(10);

    // A savepoint: on PostgreSQL an error aborts the whole transaction; rolling back to it leaves the app's work intact.
    private const string Savepoint = "notifications_template_check";

    private static readonly ConcurrentDictionary<string, Entry> Cache = new(StringComparer.Ordinal);
    private static readonly ConcurrentDictionary<string, bool> Warned = new(StringComparer.Ordinal);

    /// <exception cref="ArgumentException">The template has no version (<see cref="ArgumentException.ParamName"/> <c>TemplateName</c>), or the data
    /// lacks a variable it uses (<c>TemplateData</c>).</exception>
    public static async Task CheckAsync(
        IOutboxDialect dialect, DbTransaction transaction, OutboxValues values, string schema, ILogger logger, CancellationToken cancellationToken)
    {
        if (values.Notification is not { TemplateName: { } name, TemplateData: { } data })
        {
            return;
        }

        var connection = transaction.Connection!;
        string database = $"{connection.DataSource}\u001f{connection.Database}\u001f{schema}";
        string key = $"{database}\u001f{name}";
        if (!Cache.TryGetValue(key, out var entry) || entry.Expired)
        {
            entry = await ReadAsync(dialect, transaction, name, schema, cancellationToken);
            if (entry.Rows.Count > 0 || entry.Error is not null)
            {
                Cache[key] = entry;
            }
            else
            {
                Cache.TryRemove(key, out _);
            }
        }

        if (entry.Error is { } error)
        {
            if (Warned.TryAdd(database, true))
            {
                ClientLog.TemplateCheckSkipped(logger, schema, error);
            }

            return;
        }

        if (entry.Rows.Count == 0)
        {
            throw new ArgumentException(TemplateRules.Unknown(name), nameof(NewNotification.TemplateName));
        }

        if (TemplateRules.Required(entry.Rows, values.Notification.Locale) is { Count: > 0 } required
            && TemplateRules.Missing(required, data) is { Count: > 0 } missing)
        {
            throw new ArgumentException(TemplateRules.Refusal(name, missing), nameof(NewNotification.TemplateData));
        }
    }

    /// <summary>Forgets every kept template (tests).</summary>
    internal static void Clear()
    {
        Cache.Clear();
        Warned.Clear();
    }

    private static async Task<Entry> ReadAsync(IOutboxDialect dialect, DbTransaction transaction, string name, string schema, CancellationToken cancellationToken)
    {
        await transaction.SaveAsync(Savepoint, cancellationToken);
        try
        {
            await using var command = transaction.Connection!.CreateCommand();
            command.Transaction = transaction;
            command.CommandText = dialect.TemplateVariablesSql(schema);
            var parameter = command.CreateParameter();
            parameter.ParameterName = "Name";
            parameter.DbType = DbType.String;
            parameter.Value = name;
            command.Parameters.Add(parameter);
            var rows = new List<TemplateVariablesRow>();
            await using (var reader = await command.ExecuteReaderAsync(cancellationToken))
            {
                while (await reader.ReadAsync(cancellationToken))
                {
                    rows.Add(new TemplateVariablesRow(
                        reader.GetString(0), reader.GetInt32(1), await reader.IsDBNullAsync(2, cancellationToken) ? null : reader.GetString(2)));
                }
            }

            await transaction.ReleaseAsync(Savepoint, cancellationToken);
            return new Entry(rows, null, Environment.TickCount64);
        }
        catch (DbException ex)
        {
            await transaction.RollbackAsync(Savepoint, cancellationToken);
            return new Entry([], ex.Message, Environment.TickCount64);
        }
    }

    private sealed record Entry(IReadOnlyList<TemplateVariablesRow> Rows, string? Error, long ReadAt)
    {
        public bool Expired => Environment.TickCount64 - ReadAt > (long)CacheFor.TotalMilliseconds;
    }
}
