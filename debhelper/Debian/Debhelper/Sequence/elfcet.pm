#!/usr/bin/perl
# debhelper sequence addon for elfcet: `dh $@ --with elfcet`, or Build-Depends:
# dh-sequence-elfcet. dh_elfcet runs once the files are stripped (stripping first keeps the
# marking) and before dh_gencontrol writes the package's control file.
use strict;
use warnings;
use Debian::Debhelper::Dh_Lib;

insert_after('dh_strip', 'dh_elfcet');

1;
