using Dapper;
using Notifications.Shared.Contract;
using Notifications.Shared.Hosting;
using Notifications.Shared.Templates;
using Npgsql;

namespace Notifications.Shared.Data.Postgres;

/// <summary>The <c>template</c> table on PostgreSQL.</summary>
internal sealed class PostgresTemplateStore(NpgsqlDataSource dataSource, DatabaseOptions options) : ITemplateStore
{
    private readonly int _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;

    // The newest version of each locale; the locale first put comes first (the template's default).
    private readonly string _newestSql = $"""
        SELECT name AS Name, locale AS Locale, version AS Version, subject AS Subject, text_body AS TextBody,
               html_body AS HtmlBody, created_at AS CreatedAt
        FROM (SELECT DISTINCT ON (locale) *, min(id) OVER (PARTITION BY locale) AS first_id
              FROM "{options.Schema}".template WHERE name = @Name ORDER BY locale, version DESC) AS newest
        ORDER BY first_id
        """;

    // Concurrent puts of one name and locale: the second fails on the unique key rather than overwrite.
    private readonly string _putSql = $"""
        INSERT INTO "{options.Schema}".template (name, locale, version, subject, text_body, html_body, variables)
        SELECT @Name, @Locale, COALESCE(max(version), 0) + 1, @Subject, @TextBody, @HtmlBody, @Variables
        FROM "{options.Schema}".template WHERE name = @Name AND locale = @Locale
        RETURNING version
        """;

    private readonly string _listSql = $"""
        SELECT t.name AS Name, t.locale AS Locale, t.version AS Version, c.versions AS Versions, c.updated_at AS UpdatedAt,
               t.variables AS Variables
        FROM (SELECT name, locale, max(version) AS version, count(*)::int AS versions, max(created_at) AS updated_at
              FROM "{options.Schema}".template GROUP BY name, locale) AS c
        JOIN "{options.Schema}".template AS t ON t.name = c.name AND t.locale = c.locale AND t.version = c.version
        ORDER BY t.name, t.locale
        """;

    public async Task<IReadOnlyList<TemplateVersion>> GetNewestAsync(string name, CancellationToken cancellationToken)
    {
        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        var rows = await connection.QueryAsync<Row>(Command(_newestSql, new { Name = name }, cancellationToken));
        return rows.Select(r => new TemplateVersion(r.Name, r.Locale, r.Version, r.Subject, r.TextBody, r.HtmlBody, Utc(r.CreatedAt))).ToList();
    }

    public async Task<int> PutAsync(string name, string locale, string subject, string? textBody, string? htmlBody, string? variables, CancellationToken cancellationToken)
    {
        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.ExecuteScalarAsync<int>(Command(
            _putSql, new { Name = name, Locale = locale, Subject = subject, TextBody = textBody, HtmlBody = htmlBody, Variables = variables }, cancellationToken));
    }

    public async Task<IReadOnlyList<TemplateListing>> ListAsync(CancellationToken cancellationToken)
    {
        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        var rows = await connection.QueryAsync<ListRow>(Command(_listSql, null, cancellationToken));
        return rows.Select(r => new TemplateListing(r.Name, r.Locale, r.Version, r.Versions, Utc(r.UpdatedAt), TemplateRules.Parse(r.Variables))).ToList();
    }

    private CommandDefinition Command(string sql, object? parameters, CancellationToken cancellationToken) =>
        new(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);

    // Npgsql reads timestamptz as a UTC DateTime.
    private static DateTimeOffset Utc(DateTime value) => new(DateTime.SpecifyKind(value, DateTimeKind.Utc));

    private sealed class Row
    {
        public string Name { get; set; } = "";

        public string Locale { get; set; } = "";

        public int Version { get; set; }

        public string Subject { get; set; } = "";

        public string? TextBody { get; set; }

        public string? HtmlBody { get; set; }

        public DateTime CreatedAt { get; set; }
    }

    private sealed class ListRow
    {
        public string Name { get; set; } = "";

        public string Locale { get; set; } = "";

        public int Version { get; set; }

        public int Versions { get; set; }

        public DateTime UpdatedAt { get; set; }

        public string? Variables { get; set; }
    }
}
