<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="en_US">
<context>
    <name>normlab::ChartsView</name>
    <message numerus="yes">
        <source>%1 (+ %n alike)</source>
        <translation>
            <numerusform>%1 (+ %n alike)</numerusform>
            <numerusform>%1 (+ %n alike)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n more block(s) not shown: select fewer runs.</source>
        <translation>
            <numerusform>%n more block not shown: select fewer runs.</numerusform>
            <numerusform>%n more blocks not shown: select fewer runs.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) with a configuration this version cannot read.</source>
        <translation>
            <numerusform>%n run with a configuration this version cannot read.</numerusform>
            <numerusform>%n runs with a configuration this version cannot read.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>normlab::Designer</name>
    <message numerus="yes">
        <source>Queue all %n run(s) of %1</source>
        <translation>
            <numerusform>Queue the %n run of %1</numerusform>
            <numerusform>Queue all %n runs of %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>normlab::LineChart</name>
    <message numerus="yes">
        <source> · %n line(s) hidden (click the legend to show)</source>
        <translation>
            <numerusform> · %n line hidden (click the legend to show it)</numerusform>
            <numerusform> · %n lines hidden (click the legend to show them)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>normlab::MainWindow</name>
    <message numerus="yes">
        <source>Delete %n run(s) and all their data? This cannot be undone.</source>
        <translation>
            <numerusform>Delete %n run and all its data? This cannot be undone.</numerusform>
            <numerusform>Delete %n runs and all their data? This cannot be undone.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Deleted %n run(s); their checkpoints freed %1.</source>
        <translation>
            <numerusform>Deleted %n run; its checkpoints freed %1.</numerusform>
            <numerusform>Deleted %n runs; their checkpoints freed %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Deleted %n run(s).</source>
        <translation>
            <numerusform>Deleted %n run.</numerusform>
            <numerusform>Deleted %n runs.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Following runs on %n server(s) again</source>
        <translation>
            <numerusform>Following runs on %n server again</numerusform>
            <numerusform>Following runs on %n servers again</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) started on %1; following them live</source>
        <translation>
            <numerusform>%n run started on %1; following it live</numerusform>
            <numerusform>%n runs started on %1; following them live</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copied %n run(s) as tab-separated text</source>
        <translation>
            <numerusform>Copied %n run as tab-separated text</numerusform>
            <numerusform>Copied %n runs as tab-separated text</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copied %n setting(s) as tab-separated text</source>
        <translation>
            <numerusform>Copied %n setting as tab-separated text</numerusform>
            <numerusform>Copied %n settings as tab-separated text</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Trains on the CPU (%n thread(s))</source>
        <translation>
            <numerusform>Trains on the CPU (%n thread)</numerusform>
            <numerusform>Trains on the CPU (%n threads)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>normlab::RemoteControl</name>
    <message numerus="yes">
        <source>%1: %2 after %n step(s), validation loss %3</source>
        <translation>
            <numerusform>%1: %2 after %n step, validation loss %3</numerusform>
            <numerusform>%1: %2 after %n steps, validation loss %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 after %n step(s)</source>
        <translation>
            <numerusform>%1: %2 after %n step</numerusform>
            <numerusform>%1: %2 after %n steps</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Following %n run(s) on %1</source>
        <translation>
            <numerusform>Following %n run on %1</numerusform>
            <numerusform>Following %n runs on %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Following the Slurm sweep in %1 on %2 (%n task store(s))</source>
        <translation>
            <numerusform>Following the Slurm sweep in %1 on %2 (%n task store)</numerusform>
            <numerusform>Following the Slurm sweep in %1 on %2 (%n task stores)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Connection to %1 lost (%2); reconnecting in %n s</source>
        <translation>
            <numerusform>Connection to %1 lost (%2); reconnecting in %n s</numerusform>
            <numerusform>Connection to %1 lost (%2); reconnecting in %n s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> (+%n more running)</source>
        <translation>
            <numerusform> (+%n more running)</numerusform>
            <numerusform> (+%n more running)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>normlab::RemoteDialog</name>
    <message numerus="yes">
        <source>%n GPU(s): %1; but its LibTorch has no CUDA: runs train on its CPU</source>
        <translation>
            <numerusform>%n GPU: %1; but its LibTorch has no CUDA: runs train on its CPU</numerusform>
            <numerusform>%n GPUs: %1; but its LibTorch has no CUDA: runs train on its CPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s): %1</source>
        <translation>
            <numerusform>%n GPU: %1</numerusform>
            <numerusform>%n GPUs: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>normlab::ReportDialog</name>
    <message numerus="yes">
        <source>; %n run(s)</source>
        <translation>
            <numerusform>; %n run</numerusform>
            <numerusform>; %n runs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>normlab::SampleDialog</name>
    <message numerus="yes">
        <source>%n more selected run(s) left out: the first %1 are shown side by side.</source>
        <translation>
            <numerusform>%n more selected run left out: the first %1 are shown side by side.</numerusform>
            <numerusform>%n more selected runs left out: the first %1 are shown side by side.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>normlab::BlockDiagram</name>
    <message numerus="yes">
        <source>× %n layer(s)</source>
        <translation>
            <numerusform>× %n layer</numerusform>
            <numerusform>× %n layers</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>normlab::SweepChart</name>
    <message numerus="yes">
        <source>%n setting(s) the scheme implies (%1)</source>
        <translation>
            <numerusform>%n setting the scheme implies (%1)</numerusform>
            <numerusform>%n settings the scheme implies (%1)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n hidden (%1)</source>
        <translation>
            <numerusform>%n hidden (%1)</numerusform>
            <numerusform>%n hidden (%1)</numerusform>
        </translation>
    </message>
</context>
</TS>