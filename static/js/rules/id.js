// Cara main, dalam Bahasa Indonesia: aturan yang dimainkan server (docs/rules.md), ditulis untuk
// pemain. Bentuknya sama dengan en.js (rules.js menampilkannya).

export default {
  games: {
    gaple: {
      about: "Permainan blok khas meja online Indonesia: tutup jalur, setiap Lewat dibayar, dan "
        + "ronde dimenangkan dengan pengali ×1 sampai ×5. Dimainkan dengan chip.",
      sections: [
        { title: "Kartu dan giliran", body: [[
          "Set balak-6: 28 kartu, 2 sampai 4 pemain, 7 kartu untuk setiap pemain. Dengan 2 atau 3 "
            + "pemain, sisa kartu tertutup dan tidak dipakai; tidak ada yang mengambil kartu.",
          "Pembuka ronde dipilih acak (atau, kalau meja memilihnya, pemenang ronde sebelumnya). "
            + "Kartu pertama boleh kartu apa saja; giliran berjalan searah jarum jam.",
          "Kartu dipasang di salah satu ujung jalur kalau salah satu angkanya sama dengan angka di "
            + "ujung itu. Kalau cocok di dua ujung, Anda memilih ujungnya.",
          "Yang bisa main wajib main. Yang tidak punya kartu yang cocok harus Lewat; server "
            + "melakukannya untuk Anda saat itu juga.",
        ] ] },
        { title: "Lewat: setiap lewat dibayar", body: [
          "Pemain yang Lewat langsung membayar 1 × taruhan kepada pemain sebelumnya (yang main tepat "
            + "sebelum dia), walaupun pemain itu juga baru Lewat. Pembayaran terjadi saat itu juga dan tercatat di riwayat meja.",
        ] },
        { title: "Akhir ronde", body: [[
          "Habis kartu: ronde selesai begitu seorang pemain memasang kartu terakhirnya; dia menang.",
          "Buntu (Dead-End): ronde selesai begitu sebuah kartu membuat tidak ada lagi yang bisa "
            + "main. Tidak ada Lewat yang dibayar. Pemenangnya: jumlah mata terkecil di tangan, lalu "
            + "kartu tersedikit, lalu angka atas terkecil, lalu angka bawah terkecil; kalau masih "
            + "sama, yang lebih dulu dalam urutan giliran dihitung dari pemasang kartu terakhir.",
        ] ] },
        { title: "Pengali", body: [
          "Pengali ronde ditentukan oleh kartu terakhir dan dua ujung jalur tepat sebelum kartu itu "
            + "dipasang:",
          { table: [
            ["Nama", "×", "Kapan"],
            ["Single", "1", "ronde berakhir Buntu"],
            ["Double", "2", "kartu terakhir bukan balak dan cocok hanya di satu sisi"],
            ["Triple", "3", "kartu terakhir balak dan cocok hanya di satu sisi"],
            ["Kuartet", "4", "kartu [a|b] cocok di dua ujung sekaligus: ujungnya persis a dan b"],
            ["Kuintet", "5", "kartu [v|v] dan kedua ujung menunjukkan v"],
          ] },
        ] },
        { title: "Bayaran kalah ronde: bidang Biasa dan bidang Bet", body: [[
          "Bidang Biasa: setiap pemain yang kalah membayar pemenang taruhan × pengali.",
          "Bidang Bet: setiap pemain yang kalah membayar taruhan × pengali × sisa mata kartu di "
            + "tangannya. Yang hanya memegang [0|0] tidak membayar apa-apa. Lewat tetap 1 taruhan.",
          "Chip tidak pernah minus: setiap bayaran dibatasi chip pembayar di meja, dan kekurangannya "
            + "dicatat. Pemain dengan chip di bawah satu taruhan tidak ikut dibagi kartu sampai ia "
            + "duduk lagi dengan chip baru.",
        ] ] },
        { title: "Contoh: Lewat, pengali, dan bidang Bet", body: [
          "Empat pemain, Ani (kursi 0), Budi (1), Citra (2), dan Dewi (3), masing-masing 1.000 "
            + "chip; taruhan 10. Ujung kiri jalur menunjukkan 2 dan ujung kanan 5. Di tangan: Ani "
            + "[2|5] (7 mata), Budi [0|1] [0|6] (7), Citra [3|4] [6|6] (19), Dewi [0|0] [1|3] "
            + "[4|6] (14).",
          [
            "Giliran Citra: tidak punya 2 atau 5, jadi Lewat dan membayar 10 chip kepada pemain "
              + "sebelumnya, Budi.",
            "Giliran Dewi: juga Lewat, dan membayar 10 kepada Citra, walaupun Citra baru saja Lewat.",
            "Giliran Ani: ia memasang kartu terakhirnya, [2|5]. Ujungnya persis 2 dan 5, jadi "
              + "kartu itu menyambung dua sisi sekaligus: Kuartet ×4. Ani menang.",
          ],
          { table: [
            ["Pembayar", "Bidang Biasa: 10 × 4", "Bidang Bet: 10 × 4 × mata"],
            ["Budi (7 mata)", "40", "280"],
            ["Citra (19 mata)", "40", "760"],
            ["Dewi (14 mata)", "40", "560"],
            ["Ani menerima", "120", "1.600"],
          ] },
          "Chip akhir di bidang Biasa: Ani 1.120, Budi 970, Citra 960, Dewi 950. Di bidang Bet: "
            + "Ani 2.600, Budi 730, Citra 240, Dewi 430. Jumlahnya tetap 4.000: chip hanya "
            + "berpindah antarpemain.",
          "Pengali lain dengan ujung yang sama, 2 dan 5: [5|6] di ujung 5 adalah Double ×2; [5|5] "
            + "di ujung 5 adalah Triple ×3; [5|5] saat kedua ujung 5 adalah Kuintet ×5; [2|5] saat "
            + "kedua ujung 5 hanya cocok dengan angka 5, jadi Double ×2.",
          "Buntu: Dewi memasang [4|6] sehingga kedua ujung 4 dan ketujuh kartu berangka 4 sudah di "
            + "meja. Ronde langsung selesai, Single ×1, tanpa Lewat. Ani [0|5] dan Budi [2|3] sama-"
            + "sama 5 mata dan 1 kartu; angka atas 0 lawan 2, jadi Ani menang.",
        ] },
        { title: "Ronde demi ronde", body: [
          "Meja Gaple membagi ronde berikutnya sendiri setelah jeda singkat, selama ada pemain "
            + "manusia dan sedikitnya dua pemain yang punya satu taruhan. Setiap ronde selesai, semua "
            + "kartu di tangan diperlihatkan.",
        ] },
      ],
    },
    moon: {
      about: "Permainan trik dengan tawaran dan truf: empat pemain berpasangan (atau tiga pemain "
        + "masing-masing sendiri), sampai 21 poin.",
      sections: [
        { title: "Pemain dan kartu", body: [[
          "Empat pemain dalam dua pasangan yang duduk berhadapan: kursi 0 dan 2 melawan 1 dan 3.",
          "Set balak-6, 7 kartu untuk setiap pemain; semua 28 kartu dibagi.",
          "Ada tujuh jenis (0 sampai 6). Kartu biasa masuk dua jenis, balak hanya satu. Dalam satu "
            + "jenis balak paling tinggi, lalu kartu lain menurut angka lainnya.",
        ] ] },
        { title: "Tawaran dan truf", body: [[
          "Setiap pemain, searah jarum jam, sekali menawar atau pas. Tawaran 4, 5, 6, 7 atau 21, dan "
            + "harus lebih tinggi dari tawaran sebelumnya. Tawaran 21 langsung menutup tawaran.",
          "Kalau semua pas, kartu dikocok dan dibagi ulang.",
          "Pemenang tawaran memilih truf: sebuah angka 0 sampai 6, semua balak, atau tanpa truf.",
        ] ] },
        { title: "Trik", body: [[
          "Pemenang tawaran membuka trik pertama; pemenang setiap trik membuka trik berikutnya.",
          "Kalau truf dibuka, setiap pemain wajib memasang truf kalau punya. Kalau bukan truf, "
            + "jenisnya adalah angka tertinggi kartu itu, dan pemain wajib mengikuti jenis itu kalau "
            + "bisa. Yang tidak bisa mengikuti boleh memasang apa saja, truf juga.",
          "Truf tertinggi menang; tanpa truf, kartu tertinggi dari jenis yang dibuka menang.",
        ] ] },
        { title: "Poin", body: [[
          "Pihak penawar yang memenuhi tawarannya mendapat 1 poin untuk setiap trik yang dimenangkan.",
          "Tawaran 21 yang berhasil (ketujuh trik) langsung memenangkan pertandingan.",
          "Pihak penawar yang gagal kehilangan poin sebesar tawarannya; poin boleh minus.",
          "Pihak lawan selalu mendapat 1 poin untuk setiap trik yang dimenangkan.",
          "Pertandingan selesai setelah satu pihak punya 21 poin atau lebih dan unggul.",
        ] ] },
        { title: "Moon bertiga", body: [
          "Dengan tiga pemain, masing-masing bermain sendiri dengan 22 kartu (tanpa kartu berangka 0 "
            + "kecuali [0|0]). Satu kartu tertutup di tengah: pemenang tawaran mengambilnya setelah "
            + "memilih truf, lalu membuang satu kartu tertutup.",
        ] },
      ],
    },
    cross: {
      about: "Permainan ambil kartu yang dibuka dengan balak sebagai pusat salib; empat lengannya "
        + "harus terisi dulu. Sampai 100 poin.",
      sections: [
        { title: "Kartu dan pembukaan", body: [[
          "2 sampai 4 pemain, masing-masing sendiri. Dengan 2 pemain 7 kartu, dengan 3 atau 4 "
            + "pemain 5 kartu; sisanya tumpukan tertutup.",
          "Pemegang balak tertinggi membuka dengan balak itu: itulah pusat salib.",
        ] ] },
        { title: "Salib dan lengan", body: [[
          "Sampai keempat sisi pusat (utara, timur, selatan, barat) terisi, kartu hanya boleh "
            + "dipasang di sisi pusat yang masih kosong.",
          "Setelah salib lengkap, keempat lengan memanjang dari ujungnya yang terbuka.",
          "Yang bisa main wajib main. Yang tidak bisa mengambil satu kartu dari tumpukan dan wajib "
            + "memasangnya kalau cocok; kalau tidak, giliran lewat.",
          "Dua kartu terakhir tumpukan tidak pernah diambil; setelah itu yang tidak bisa main pas.",
        ] ] },
        { title: "Poin", body: [[
          "Domino: pemain yang habis kartu mendapat jumlah mata di tangan semua lawan.",
          "Buntu: pemain dengan mata terkecil mendapat mata lawan dikurangi matanya sendiri "
            + "(lawan 30, sendiri 13: dapat 17). Kalau mata terkecil sama, tidak ada yang dapat poin.",
          "Yang pertama mencapai 100 poin (atau target meja) menang.",
        ] ] },
      ],
    },
    mexican_train: {
      about: "Set balak-12, kereta pribadi, penanda, Kereta Meksiko untuk semua, dan balak yang "
        + "harus ditutup. 13 ronde; poin terkecil menang.",
      sections: [
        { title: "Kartu dan mesin", body: [[
          "2 sampai 8 pemain. Kartu: 15 masing-masing dengan 2 sampai 4 pemain, 12 dengan 5 atau 6, "
            + "10 dengan 7 atau 8. Sisanya tumpukan.",
          "Ronde 1 dibuka dengan mesin [12|12], ronde 2 dengan [11|11], dan seterusnya sampai [0|0].",
        ] ] },
        { title: "Kereta dan penanda", body: [[
          "Setiap pemain punya kereta sendiri dari pusat. Kereta Meksiko terbuka untuk semua.",
          "Anda boleh main di kereta sendiri, di Kereta Meksiko, dan di kereta pemain lain yang "
            + "memasang penanda.",
          "Yang tidak bisa main mengambil satu kartu dan memasangnya kalau cocok; kalau tidak, ia "
            + "memasang penanda di keretanya sendiri. Penanda diangkat begitu pemiliknya main lagi di "
            + "keretanya.",
          "Giliran pertama: Anda boleh memasang sebanyak mungkin kartu di kereta sendiri.",
        ] ] },
        { title: "Balak", body: [
          "Memasang balak memberi satu langkah lagi. Balak di ujung kereta harus ditutup dengan kartu "
            + "yang cocok sebelum langkah lain; kalau Anda tidak bisa, pemain berikutnya yang harus "
            + "menutupnya.",
        ] },
        { title: "Poin", body: [[
          "Ronde selesai saat seorang pemain habis kartu, atau saat semua pemain buntu.",
          "Yang habis kartu mendapat 0; yang lain mendapat jumlah mata di tangannya.",
          "Setelah ronde terakhir, jumlah poin terkecil menang.",
        ] ] },
      ],
    },
  },
  common: [
    { title: "Di meja online", body: [[
      "Server memutuskan semua aturan. Kartu yang boleh Anda pasang diangkat dan diberi garis emas.",
      "Setiap giliran punya batas waktu (lingkaran di samping nama). Kalau waktu habis, server "
        + "bermain untuk Anda; setelah tiga kali berturut-turut Anda dianggap pergi dan bot "
        + "bermain sampai Anda kembali.",
      "Kalau satu-satunya langkah adalah Lewat, pas, atau ambil kartu, server melakukannya saat "
        + "itu juga.",
      "Kartu lawan tidak pernah terlihat selama ronde; setelah ronde selesai, kartu di tangan "
        + "diperlihatkan.",
    ] ] },
  ],
};
