using Microsoft.SqlServer.TransactSql.ScriptDom;

namespace Notifications.UnitTests.SqlServer;

/// <summary>Collects the table hints of every reference to one table anywhere in a statement (CTEs included).</summary>
internal sealed class TableHintCollector(string table) : TSqlFragmentVisitor
{
    private readonly List<IReadOnlySet<TableHintKind>> _references = [];

    /// <summary>One entry per reference to the table, in the order they appear.</summary>
    public IReadOnlyList<IReadOnlySet<TableHintKind>> References => _references;

    public static IReadOnlyList<IReadOnlySet<TableHintKind>> Collect(TSqlFragment fragment, string table)
    {
        var collector = new TableHintCollector(table);
        fragment.Accept(collector);
        return collector.References;
    }

    public override void Visit(NamedTableReference node)
    {
        ArgumentNullException.ThrowIfNull(node);
        if (string.Equals(node.SchemaObject.BaseIdentifier.Value, table, StringComparison.OrdinalIgnoreCase))
        {
            _references.Add(node.TableHints.Select(h => h.HintKind).ToHashSet());
        }
    }
}
