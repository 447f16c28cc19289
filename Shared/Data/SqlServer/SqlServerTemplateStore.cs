using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Contract;
using Notifications.Shared.Hosting;
using Notifications.Shared.Templates;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>The <c>template</c> table on SQL Server.</summary>
internal sealed class SqlServerTemplateStore : ITemplateStore
{
    private readonly string _connectionString;
    private readonly int _timeoutSeconds;

    public SqlServerTemplateStore(DatabaseOptions options)
    {
        _connectionString = options.ConnectionString;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        NewestSql = $"""
            WITH ranked AS (
                SELECT name, locale, version, subject, text_body, html_body, created_at,
                       ROW_NUMBER() OVER (PARTITION BY locale ORDER BY version DESC) AS newest,
                       MIN(id) OVER (PARTITION BY locale) AS first_id
                FROM [{s}].[template] WHERE name = @Name)
            SELECT name AS Name, locale AS Locale, version AS Version, subject AS Subject, text_body AS TextBody,
                   html_body AS HtmlBody, created_at AS CreatedAt
            FROM ranked WHERE newest = 1 ORDER BY first_id;
            """;
        // UPDLOCK + HOLDLOCK on the name and locale's key range: two puts at once take turns instead of both reading the same max.
        PutSql = $"""
            INSERT INTO [{s}].[template] (name, locale, version, subject, text_body, html_body, variables)
            OUTPUT INSERTED.version
            SELECT @Name, @Locale, COALESCE(MAX(version), 0) + 1, @Subject, @TextBody, @HtmlBody, @Variables
            FROM [{s}].[template] WITH (UPDLOCK, HOLDLOCK) WHERE name = @Name AND locale = @Locale;
            """;
        ListSql = $"""
            SELECT t.name AS Name, t.locale AS Locale, t.version AS Version, c.versions AS Versions, c.updated_at AS UpdatedAt,
                   t.variables AS Variables
            FROM (SELECT name, locale, MAX(version) AS version, COUNT(*) AS versions, MAX(created_at) AS updated_at
                  FROM [{s}].[template] GROUP BY name, locale) AS c
            JOIN [{s}].[template] AS t ON t.name = c.name AND t.locale = c.locale AND t.version = c.version
            ORDER BY t.name, t.locale;
            """;
    }

    internal string NewestSql { get; }

    internal string PutSql { get; }

    internal string ListSql { get; }

    public async Task<IReadOnlyList<TemplateVersion>> GetNewestAsync(string name, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        var rows = await connection.QueryAsync<TemplateVersion>(Command(NewestSql, new { Name = name }, cancellationToken));
        return rows.AsList();
    }

    public async Task<int> PutAsync(string name, string locale, string subject, string? textBody, string? htmlBody, string? variables, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.ExecuteScalarAsync<int>(Command(
            PutSql, new { Name = name, Locale = locale, Subject = subject, TextBody = textBody, HtmlBody = htmlBody, Variables = variables }, cancellationToken));
    }

    public async Task<IReadOnlyList<TemplateListing>> ListAsync(CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        var rows = await connection.QueryAsync<ListRow>(Command(ListSql, null, cancellationToken));
        return rows.Select(r => new TemplateListing(r.Name, r.Locale, r.Version, r.Versions, r.UpdatedAt, TemplateRules.Parse(r.Variables))).ToList();
    }

    private CommandDefinition Command(string sql, object? parameters, CancellationToken cancellationToken) =>
        new(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);

    private sealed class ListRow
    {
        public string Name { get; set; } = "";

        public string Locale { get; set; } = "";

        public int Version { get; set; }

        public int Versions { get; set; }

        public DateTimeOffset UpdatedAt { get; set; }

        public string? Variables { get; set; }
    }
}
